/// How a habit's history is summed for bar charts and averages.
public enum TotalsPeriod: String, Codable, Sendable, CaseIterable {
  case week, month, year
}

/// One bar: a week, month or year and what it holds.
public struct TotalsBucket: Hashable, Codable, Sendable {
  /// The bucket's first day (the week's first weekday, the 1st of the month, 1 January).
  public var start: Day
  /// Completed days in the bucket (up to today).
  public var completions: Int
  /// Summed amounts (zero for yes/no habits).
  public var amount: Amount

  public init(start: Day, completions: Int, amount: Amount) {
    self.start = start
    self.completions = completions
    self.amount = amount
  }
}

/// A habit's totals per week, month or year from the bucket holding its tracking start to the
/// one holding today, oldest first, and their averages.
public struct HabitTotals: Hashable, Codable, Sendable {
  public var period: TotalsPeriod
  public var buckets: [TotalsBucket]

  public init(period: TotalsPeriod, buckets: [TotalsBucket]) {
    self.period = period
    self.buckets = buckets
  }

  public init(habit: Habit, history: HabitHistory, today: Day, firstWeekday: Weekday, by period: TotalsPeriod) {
    let start = history.trackingStart(createdDay: habit.createdDay)
    var buckets: [TotalsBucket] = []
    var first = HabitTotals.bucketStart(containing: min(start, today), by: period, firstWeekday: firstWeekday)
    while first <= today {
      let next = HabitTotals.nextBucketStart(after: first, by: period)
      var completions = 0
      var total: Int64 = 0
      for day in first..<min(next, today.adding(days: 1)) {
        if history.isCompleted(on: day) { completions += 1 }
        total += history.thousandths(on: day)
      }
      buckets.append(TotalsBucket(start: first, completions: completions, amount: Amount(thousandths: total)))
      first = next
    }
    self.init(period: period, buckets: buckets)
  }

  /// Completions per bucket, averaged over every bucket shown (0 when there are none).
  public var averageCompletions: Double {
    buckets.isEmpty ? 0 : Double(buckets.reduce(0) { $0 + $1.completions }) / Double(buckets.count)
  }

  /// Amount per bucket, averaged over every bucket shown, in units.
  public var averageAmount: Double {
    buckets.isEmpty ? 0 : buckets.reduce(0.0) { $0 + $1.amount.doubleValue } / Double(buckets.count)
  }

  static func bucketStart(containing day: Day, by period: TotalsPeriod, firstWeekday: Weekday) -> Day {
    switch period {
    case .week: day.startOfWeek(firstWeekday: firstWeekday)
    case .month: day.adding(days: 1 - day.day)
    case .year: Day(year: day.year, month: 1, day: 1)!
    }
  }

  static func nextBucketStart(after start: Day, by period: TotalsPeriod) -> Day {
    switch period {
    case .week: start.adding(days: 7)
    case .month: start.adding(days: Day.daysIn(month: start.month, year: start.year))
    case .year: Day(year: start.year + 1, month: 1, day: 1)!
    }
  }
}
