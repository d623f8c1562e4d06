import Foundation
import TallyCore

/// The periods of SPEC 3's schedules and their goal rules, found the long way: weeks by walking
/// back to the first weekday, months and years through Foundation's calendar, blocks of days
/// by stepping n days at a time from the start.
public enum ReferencePeriods {
  /// Every period from the one holding `start` through the one holding `today`.
  public static func periods(
    of frequency: Frequency, from start: Day, through today: Day, firstWeekday: Weekday
  ) -> [ClosedRange<Day>] {
    // A habit created after today (a device's clock ahead) has no period yet, not even the
    // week or month that will hold its first day.
    guard start <= today else { return [] }
    var result: [ClosedRange<Day>] = []
    var first: Day =
      switch frequency {
      case .daily, .weekdays, .timesInDays: start
      case .weekly: ReferenceCalendar.startOfWeek(containing: start, firstWeekday: firstWeekday)
      case .monthly: interval(of: .month, containing: start).lowerBound
      }
    while first <= today {
      let last: Day =
        switch frequency {
        case .daily, .weekdays: first
        case .weekly: ReferenceCalendar.adding(6, to: first)
        case .timesInDays(_, let n): ReferenceCalendar.adding(n - 1, to: first)
        case .monthly: interval(of: .month, containing: first).upperBound
        }
      result.append(first...last)
      first = ReferenceCalendar.adding(1, to: last)
    }
    return result
  }

  /// The first and last day of the Foundation calendar month or year holding `day`.
  public static func interval(of component: Calendar.Component, containing day: Day) -> ClosedRange<Day> {
    let calendar = ReferenceCalendar.utcCalendar
    let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
    let span = calendar.dateInterval(of: component, for: noon)!
    func toDay(_ date: Date) -> Day {
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      return Day(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
    return toDay(span.start)...toDay(span.end.addingTimeInterval(-1))
  }

  /// A period's days up to today, and its whole length and neutral days, future ones too.
  struct Period: Equatable {
    var days: [Day]
    var length: Int
    var unpaused: Int

    init(range: ClosedRange<Day>, today: Day, book: ReferenceStatistics.Book) {
      let all = ReferenceStatistics.walk(from: range.lowerBound, through: range.upperBound)
      days = all.filter { $0 <= today }
      length = all.count
      unpaused = all.filter { !book.isNeutral($0) }.count
    }

    /// SPEC 2: ceil(k × unpaused days / period days), worked in floating point.
    func needed(_ times: Int) -> Int {
      Int((Double(times) * Double(unpaused) / Double(length)).rounded(.up))
    }
  }

  static func meetsGoal(_ period: Period, habit: Habit, book: ReferenceStatistics.Book) -> Bool {
    let days = period.days
    guard let measure = habit.measure else {
      let needed = period.needed(habit.frequency.times)
      return days.filter(book.isDone).count >= (needed == 0 ? habit.frequency.times : needed)
    }
    let allNeutral = days.allSatisfy { book.isSkipped($0) || book.isNeutral($0) }
    if allNeutral && !days.contains(where: book.isDone) { return false }
    let total = days.map(book.amount).reduce(.zero, +)
    let goal = target(measure, period)
    return measure.direction == .atLeast ? total >= goal : total <= goal
  }

  /// An *at least* target in proportion to the unpaused days, rounded up to a thousandth.
  static func target(_ measure: Measure, _ period: Period) -> Amount {
    guard measure.direction == .atLeast, period.unpaused > 0, period.unpaused < period.length else {
      return measure.target
    }
    let exact = Decimal(measure.target.thousandths) * Decimal(period.unpaused) / Decimal(period.length)
    var rounded = Decimal()
    var value = exact
    NSDecimalRound(&rounded, &value, 0, .up)
    return Amount(thousandths: NSDecimalNumber(decimal: rounded).int64Value)
  }

  static func isExcused(_ period: Period, habit: Habit, book: ReferenceStatistics.Book) -> Bool {
    let days = period.days
    guard habit.measure != nil else {
      let needed = period.needed(habit.frequency.times)
      let skipped = days.filter { book.isSkipped($0) && !book.isNeutral($0) }.count
      return needed == 0 || days.filter(book.isDone).count + skipped >= needed
    }
    return days.allSatisfy { book.isSkipped($0) || book.isNeutral($0) }
  }

  static func share(_ period: Period, habit: Habit, book: ReferenceStatistics.Book) -> Double {
    let days = period.days
    guard let measure = habit.measure else {
      let needed = period.needed(habit.frequency.times)
      return min(1, Double(days.filter(book.isDone).count) / Double(needed == 0 ? habit.frequency.times : needed))
    }
    let ratio = days.map(book.amount).reduce(.zero, +).doubleValue / target(measure, period).doubleValue
    return measure.direction == .atLeast ? min(1, ratio) : max(0, min(1, 2 - ratio))
  }

  /// Totals per week, month or year from the bucket holding the tracking start to today.
  public static func totals(
    habit: Habit, entries: [HabitEntry], today: Day, firstWeekday: Weekday, by period: TotalsPeriod
  ) -> [TotalsBucket] {
    let book = ReferenceStatistics.Book(entries: entries, today: today)
    let start = min(habit.createdDay, book.doneDays.first ?? habit.createdDay, today)
    var buckets: [TotalsBucket] = []
    var first: Day =
      switch period {
      case .week: ReferenceCalendar.startOfWeek(containing: start, firstWeekday: firstWeekday)
      case .month: interval(of: .month, containing: start).lowerBound
      case .year: interval(of: .year, containing: start).lowerBound
      }
    while first <= today {
      let last: Day =
        switch period {
        case .week: ReferenceCalendar.adding(6, to: first)
        case .month: interval(of: .month, containing: first).upperBound
        case .year: interval(of: .year, containing: first).upperBound
        }
      let days = ReferenceStatistics.walk(from: first, through: min(last, today))
      buckets.append(
        TotalsBucket(
          start: first, completions: days.filter(book.isDone).count,
          amount: days.map(book.amount).reduce(.zero, +)))
      first = ReferenceCalendar.adding(1, to: last)
    }
    return buckets
  }
}

extension ReferencePeriods {
  /// SPEC 7 with SPEC 2's neutral days, the long way: a neutral day is never due; otherwise the
  /// day is due unless done (yes/no, *at most*) and its period has fewer completed days than
  /// it needs, or (*at least*) its period's sum is under the paused-scaled target. Only for days
  /// from the tracking start on (`nil` before it).
  public static func isDue(
    habit: Habit, entries: [HabitEntry], pauses: [ClosedRange<Day>], on day: Day, firstWeekday: Weekday
  ) -> Bool? {
    let far = Day(year: 9999, month: 12, day: 31)!
    let book = ReferenceStatistics.Book(entries: entries, today: far, habit: habit, pauses: pauses)
    let start = min(habit.createdDay, book.doneDays.first ?? habit.createdDay)
    guard
      let range = periods(of: habit.frequency, from: start, through: day, firstWeekday: firstWeekday)
        .first(where: { $0.contains(day) })
    else { return nil }
    if book.isNeutral(day) { return false }
    let period = Period(range: range, today: far, book: book)
    switch habit.measure?.direction {
    case nil:
      return !book.isDone(day) && period.days.filter(book.isDone).count < period.needed(habit.frequency.times)
    case .atLeast:
      return period.days.map(book.amount).reduce(.zero, +) < target(habit.measure!, period)
    case .atMost:
      return !book.isDone(day)
    }
  }
}
