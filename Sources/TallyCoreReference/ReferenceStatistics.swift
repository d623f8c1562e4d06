import Foundation
import TallyCore

/// SPEC 3 read literally: build the sequence of days (or weeks) as arrays, drop what the rule
/// drops, then count. Every step walks with Foundation's calendar. Slow on purpose.
public enum ReferenceStatistics {
  public static func statistics(
    habit: Habit, entries: [HabitEntry], today: Day, firstWeekday: Weekday
  ) -> HabitStatistics {
    var status: [Day: EntryStatus] = [:]
    for entry in entries where entry.day <= today {
      status[entry.day] = entry.status
    }
    let completedDays = status.filter { $0.value == .done }.keys.sorted()
    let start = min(habit.createdDay, completedDays.first ?? habit.createdDay)
    let days = walk(from: start, through: today)
    func isDone(_ day: Day) -> Bool { status[day] == .done }

    let weekStart = ReferenceCalendar.startOfWeek(containing: today, firstWeekday: firstWeekday)
    let completionsThisWeek = walk(from: weekStart, through: today).filter(isDone).count

    switch habit.frequency {
    case .daily:
      let sequence = days.filter { status[$0] != .skipped }
      let (current, longest, rate) = streaks(
        sequence: sequence, isMet: isDone, isCurrent: { $0 == today })
      return HabitStatistics(
        currentStreak: current, longestStreak: longest, streakUnit: .day, completionRate: rate,
        completionsThisWeek: completionsThisWeek,
        weeklyProgress: min(1, Double(completionsThisWeek) / 7),
        score: score(days: days, status: status, f: 1) { isDone($0) ? 1 : 0 })
    case .weekly(let target):
      var weeks: [Day] = []
      var week = ReferenceCalendar.startOfWeek(containing: start, firstWeekday: firstWeekday)
      while start <= today, week <= today {
        weeks.append(week)
        week = ReferenceCalendar.adding(7, to: week)
      }
      func count(_ week: Day, _ wanted: EntryStatus) -> Int {
        walk(from: week, through: ReferenceCalendar.adding(6, to: week))
          .filter { status[$0] == wanted }.count
      }
      func meets(_ week: Day) -> Bool { count(week, .done) >= target }
      let sequence = weeks.filter { meets($0) || count($0, .done) + count($0, .skipped) < target }
      let (current, longest, rate) = streaks(
        sequence: sequence, isMet: meets, isCurrent: { $0 == weeks.last })
      let value: (Day) -> Double = { day in
        let from = ReferenceCalendar.adding(-13, to: day)
        let recent = completedDays.filter { $0 >= from && $0 <= day }.count
        return min(1, Double(recent) / Double(2 * target))
      }
      return HabitStatistics(
        currentStreak: current, longestStreak: longest, streakUnit: .week, completionRate: rate,
        completionsThisWeek: completionsThisWeek,
        weeklyProgress: min(1, Double(completionsThisWeek) / Double(target)),
        score: score(days: days, status: status, f: Double(target) / 7, value: value))
    }
  }

  /// Runs over a sequence whose last element may be the current (unfinished) period.
  private static func streaks(
    sequence: [Day], isMet: (Day) -> Bool, isCurrent: (Day) -> Bool
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

  private static func score(
    days: [Day], status: [Day: EntryStatus], f: Double, value: (Day) -> Double
  ) -> Double {
    let m = pow(0.5, f.squareRoot() / 13)
    var score = 0.0
    for day in days where status[day] != .skipped {
      score = score * m + value(day) * (1 - m)
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
