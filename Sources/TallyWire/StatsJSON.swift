import Foundation
import TallyCore
import TallyStore

/// One habit's figures as `stats --json` prints them and the API sends them: SPEC 10's keys,
/// then the current period's progress, (for measurable habits, else `null`) its amount and its
/// done days, uncapped.
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
  public let periodProgress: Double
  public let periodAmount: Amount?
  public let periodCompletions: Int

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
    periodProgress = stats.periodProgress
    periodAmount = stats.periodAmount
    periodCompletions = stats.periodCompletions
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, currentStreak, longestStreak, streakUnit, completionRate, completionsThisWeek, weeklyProgress
    case score, periodProgress, periodAmount, periodCompletions
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(currentStreak, forKey: .currentStreak)
    try c.encode(longestStreak, forKey: .longestStreak)
    try c.encode(streakUnit, forKey: .streakUnit)
    try c.encode(completionRate, forKey: .completionRate)
    try c.encode(completionsThisWeek, forKey: .completionsThisWeek)
    try c.encode(weeklyProgress, forKey: .weeklyProgress)
    try c.encode(score, forKey: .score)
    try c.encode(periodProgress, forKey: .periodProgress)
    try c.encode(periodAmount, forKey: .periodAmount)
    try c.encode(periodCompletions, forKey: .periodCompletions)
  }
}

extension RankedHabit {
  /// Each habit with its statistics as of `today`, ranked (SPEC 4). `histories` holds each
  /// habit's whole history (statistics look back to the tracking start), keyed by habit id.
  public static func ranking(
    _ habits: [Habit], histories: [UUID: HabitHistory], today: Day, firstWeekday: Weekday
  ) -> [RankedHabit] {
    ranked(
      habits.map { habit in
        RankedHabit(
          habit: habit,
          statistics: HabitStatistics(
            habit: habit, history: histories[habit.id] ?? HabitHistory([]), today: today,
            firstWeekday: firstWeekday))
      })
  }
}
