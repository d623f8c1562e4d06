import Foundation

/// A habit with its figures, in the order the statistics screen ranks them.
public struct RankedHabit: Hashable, Sendable {
  public let habit: Habit
  public let statistics: HabitStatistics

  public init(habit: Habit, statistics: HabitStatistics) {
    self.habit = habit
    self.statistics = statistics
  }

  /// Completion rate descending, then current streak descending, then name ascending
  /// (ignoring case), then id so equal names still order the same way every time.
  public static func ranked(_ habits: [RankedHabit]) -> [RankedHabit] {
    habits.sorted { a, b in
      if a.statistics.completionRate != b.statistics.completionRate {
        return a.statistics.completionRate > b.statistics.completionRate
      }
      if a.statistics.currentStreak != b.statistics.currentStreak {
        return a.statistics.currentStreak > b.statistics.currentStreak
      }
      let byName = a.habit.name.caseInsensitiveCompare(b.habit.name)
      if byName != .orderedSame { return byName == .orderedAscending }
      return a.habit.id.uuidString < b.habit.id.uuidString
    }
  }
}
