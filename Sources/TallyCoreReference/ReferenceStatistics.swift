import Foundation
import TallyCore

/// SPEC 3 read literally: build the sequence of periods as arrays of days, drop what the rule
/// drops, then count. Every step walks with Foundation's calendar. Slow on purpose.
public enum ReferenceStatistics {
  /// `pauses` are the ranges of days paused for this habit (its own and all habits'), in any
  /// order, overlapping or not.
  public static func statistics(
    habit: Habit, entries: [HabitEntry], today: Day, firstWeekday: Weekday, pauses: [ClosedRange<Day>] = []
  ) -> HabitStatistics {
    let book = Book(entries: entries, today: today, habit: habit, pauses: pauses)
    let start = min(habit.createdDay, book.doneDays.first ?? habit.createdDay)
    let days = walk(from: start, through: today)
    let weekStart = ReferenceCalendar.startOfWeek(containing: today, firstWeekday: firstWeekday)
    let completionsThisWeek = walk(from: weekStart, through: today).filter(book.isDone).count

    let periods = ReferencePeriods.periods(
      of: habit.frequency, from: start, through: today, firstWeekday: firstWeekday
    ).map { ReferencePeriods.Period(range: $0, today: today, book: book) }
    func meets(_ period: ReferencePeriods.Period) -> Bool { ReferencePeriods.meetsGoal(period, habit: habit, book: book) }
    func excused(_ period: ReferencePeriods.Period) -> Bool { ReferencePeriods.isExcused(period, habit: habit, book: book) }
    let sequence = periods.filter { meets($0) || !excused($0) }
    let (current, longest, rate) = streaks(
      sequence: sequence, isMet: meets, isCurrent: { $0 == periods.last })
    let progress = periods.last.map { ReferencePeriods.share($0, habit: habit, book: book) } ?? 0
    let weeklyProgress: Double =
      switch (habit.frequency, habit.measure) {
      case (.daily, nil): min(1, Double(completionsThisWeek) / 7)
      case (.weekly(let target), nil): min(1, Double(completionsThisWeek) / Double(target))
      case (.weekdays(let days), nil): min(1, Double(completionsThisWeek) / Double(Array(days).count))
      default: progress
      }
    return HabitStatistics(
      currentStreak: current, longestStreak: longest, streakUnit: habit.frequency.streakUnit,
      completionRate: rate, completionsThisWeek: completionsThisWeek, weeklyProgress: weeklyProgress,
      score: score(habit: habit, days: days, book: book), periodProgress: progress,
      periodAmount: habit.measure == nil ? nil : (periods.last?.days ?? []).map(book.amount).reduce(.zero, +),
      periodCompletions: (periods.last?.days ?? []).filter(book.isDone).count)
  }

  /// What the entries up to today say, by day, and which days are neutral.
  struct Book {
    var status: [Day: EntryStatus] = [:]
    var amounts: [Day: Amount] = [:]
    var doneDays: [Day]
    /// The weekdays asked for; `nil` when every day is.
    var weekdays: Set<Weekday>?
    var pauses: [ClosedRange<Day>]

    init(entries: [HabitEntry], today: Day, habit: Habit? = nil, pauses: [ClosedRange<Day>] = []) {
      for entry in entries where entry.day <= today {
        status[entry.day] = entry.status
        amounts[entry.day] = entry.amount
      }
      doneDays = status.filter { $0.value == .done }.keys.sorted()
      if case .weekdays(let days)? = habit?.frequency { weekdays = Set(days) }
      self.pauses = pauses
    }

    func isDone(_ day: Day) -> Bool { status[day] == .done }
    func isSkipped(_ day: Day) -> Bool { status[day] == .skipped }
    func amount(_ day: Day) -> Amount { amounts[day] ?? .zero }
    /// Inside a pause, or on a weekday the schedule leaves out.
    func isNeutral(_ day: Day) -> Bool {
      if let weekdays, !weekdays.contains(ReferenceCalendar.weekday(of: day)) { return true }
      return pauses.contains { $0.contains(day) }
    }
  }

  /// Runs over a sequence whose last element may be the current (unfinished) period.
  private static func streaks<P: Equatable>(
    sequence: [P], isMet: (P) -> Bool, isCurrent: (P) -> Bool
  ) -> (Int, Int, Double) {
    var forCurrent = sequence
    if let last = sequence.last, isCurrent(last), !isMet(last) {
      forCurrent.removeLast()
    }
    let current = forCurrent.reversed().prefix(while: isMet).count
    var longest = 0
    var run = 0
    for item in sequence {
      run = isMet(item) ? run + 1 : 0
      longest = max(longest, run)
    }
    let counted = forCurrent
    let rate = counted.isEmpty ? 0 : Double(counted.filter(isMet).count) / Double(counted.count)
    return (current, longest, rate)
  }

  /// Loop's rule, day by day: the window of the last n days (2n for yes/no schedules rarer
  /// than daily) is gathered afresh for every day.
  private static func score(habit: Habit, days: [Day], book: Book) -> Double {
    let frequency = habit.frequency
    let (times, length): (Int, Int) =
      switch frequency {
      case .daily: (1, 1)
      case .weekly(let k): (k, 7)
      case .timesInDays(let k, let n): (k, n)
      case .monthly(let k): (k, 30)
      case .weekdays: (1, 1)
      }
    let doubled = habit.measure == nil && times < length
    let window = doubled ? 2 * length : length
    let m = pow(0.5, (Double(times) / Double(length)).squareRoot() / 13)
    var score = habit.measure?.direction == .atMost ? 1.0 : 0.0
    for day in days where !book.isSkipped(day) && (book.isDone(day) || !book.isNeutral(day)) {
      let recent = walk(from: ReferenceCalendar.adding(1 - window, to: day), through: day)
      let value: Double
      if let measure = habit.measure {
        let total = recent.map(book.amount).reduce(.zero, +).doubleValue
        value = measure.direction == .atLeast
          ? min(1, total / measure.target.doubleValue)
          : max(0, min(1, 1 - (total - measure.target.doubleValue) / measure.target.doubleValue))
      } else {
        value = min(1, Double(recent.filter(book.isDone).count) / Double(doubled ? 2 * times : times))
      }
      score = score * m + value * (1 - m)
    }
    return score
  }

  /// Every day from `first` through `last`, one Foundation calendar step at a time.
  public static func walk(from first: Day, through last: Day) -> [Day] {
    var days: [Day] = []
    var day = first
    while day <= last {
      days.append(day)
      day = ReferenceCalendar.adding(1, to: day)
    }
    return days
  }
}
