import Foundation
import TallyCore
import TallyStore

/// One habit's figures as `stats --json` prints them and the API sends them: exactly SPEC 10's
/// keys.
public struct StatsJSON: Encodable, Equatable, Sendable {
  public let id: String
  public let name: String
  public let currentStreak: Int
  public let longestStreak: Int
  public let streakUnit: StreakUnit
  public let completionRate: Double
  public let completionsThisWeek: Int
  public let weeklyProgress: Double
  public let score: Double

  public init(_ item: RankedHabit) {
    let stats = item.statistics
    id = item.habit.id.storeText
    name = item.habit.name
    currentStreak = stats.currentStreak
    longestStreak = stats.longestStreak
    streakUnit = stats.streakUnit
    completionRate = stats.completionRate
    completionsThisWeek = stats.completionsThisWeek
    weeklyProgress = stats.weeklyProgress
    score = stats.score
  }
}

extension RankedHabit {
  /// Each habit with its statistics as of `today`, ranked (SPEC 4). `entries` holds every
  /// entry of each habit (statistics look back to the tracking start), keyed by habit id.
  public static func ranking(
    _ habits: [Habit], entries: [UUID: [HabitEntry]], today: Day, firstWeekday: Weekday
  ) -> [RankedHabit] {
    ranked(
      habits.map { habit in
        RankedHabit(
          habit: habit,
          statistics: HabitStatistics(
            habit: habit, history: HabitHistory(entries[habit.id] ?? []), today: today,
            firstWeekday: firstWeekday))
      })
  }
}
