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
      case .daily, .timesInDays: start
      case .weekly: ReferenceCalendar.startOfWeek(containing: start, firstWeekday: firstWeekday)
      case .monthly: interval(of: .month, containing: start).lowerBound
      }
    while first <= today {
      let last: Day =
        switch frequency {
        case .daily: first
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

  static func meetsGoal(_ days: [Day], habit: Habit, book: ReferenceStatistics.Book) -> Bool {
    guard let measure = habit.measure else {
      return days.filter(book.isDone).count >= habit.frequency.times
    }
    if days.allSatisfy(book.isSkipped) { return false }
    let total = days.map(book.amount).reduce(.zero, +)
    return measure.direction == .atLeast ? total >= measure.target : total <= measure.target
  }

  static func isExcused(_ days: [Day], habit: Habit, book: ReferenceStatistics.Book) -> Bool {
    guard habit.measure != nil else {
      return days.filter(book.isDone).count + days.filter(book.isSkipped).count >= habit.frequency.times
    }
    return days.allSatisfy(book.isSkipped)
  }

  static func share(_ days: [Day], habit: Habit, book: ReferenceStatistics.Book) -> Double {
    guard let measure = habit.measure else {
      return min(1, Double(days.filter(book.isDone).count) / Double(habit.frequency.times))
    }
    let ratio = days.map(book.amount).reduce(.zero, +).doubleValue / measure.target.doubleValue
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
