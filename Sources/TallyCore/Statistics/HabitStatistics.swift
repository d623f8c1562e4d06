import Foundation

/// A habit's figures as of one day (SPEC 3).
public struct HabitStatistics: Hashable, Codable, Sendable {
  /// Days for daily habits, weeks meeting the goal for weekly ones.
  public var currentStreak: Int
  public var longestStreak: Int
  public var streakUnit: StreakUnit
  /// 0–1: completed days (or goal-meeting weeks) over the days (weeks) that count.
  public var completionRate: Double
  public var completionsThisWeek: Int
  /// 0–1: this week's completions over 7 (daily) or over the weekly target.
  public var weeklyProgress: Double
  /// Habit strength 0–1, an exponential average after Loop Habit Tracker.
  public var score: Double

  public init(
    currentStreak: Int, longestStreak: Int, streakUnit: StreakUnit, completionRate: Double,
    completionsThisWeek: Int, weeklyProgress: Double, score: Double
  ) {
    self.currentStreak = currentStreak
    self.longestStreak = longestStreak
    self.streakUnit = streakUnit
    self.completionRate = completionRate
    self.completionsThisWeek = completionsThisWeek
    self.weeklyProgress = weeklyProgress
    self.score = score
  }

  /// Computes every figure in one walk over the days from the tracking start to `today`.
  /// Entries after `today` are ignored.
  public init(habit: Habit, history: HabitHistory, today: Day, firstWeekday: Weekday) {
    let start = history.trackingStart(createdDay: habit.createdDay)
    let weekStart = today.adding(days: -today.weekday.offset(from: firstWeekday))
    var completionsThisWeek = 0
    for day in weekStart...today where history.isCompleted(on: day) {
      completionsThisWeek += 1
    }
    let score = HabitStatistics.score(
      frequency: habit.frequency, history: history, start: start, today: today)
    switch habit.frequency {
    case .daily:
      let streaks = HabitStatistics.dailyStreaks(history: history, start: start, today: today)
      self.init(
        currentStreak: streaks.current, longestStreak: streaks.longest, streakUnit: .day,
        completionRate: streaks.rate, completionsThisWeek: completionsThisWeek,
        weeklyProgress: min(1, Double(completionsThisWeek) / 7), score: score)
    case .weekly(let target):
      let streaks = HabitStatistics.weeklyStreaks(
        target: target, history: history, start: start, today: today, firstWeekday: firstWeekday)
      self.init(
        currentStreak: streaks.current, longestStreak: streaks.longest, streakUnit: .week,
        completionRate: streaks.rate, completionsThisWeek: completionsThisWeek,
        weeklyProgress: min(1, Double(completionsThisWeek) / Double(target)), score: score)
    }
  }

  private typealias Streaks = (current: Int, longest: Int, rate: Double)

  /// Skipped days are dropped from the sequence; an unfinished today neither counts nor breaks.
  private static func dailyStreaks(history: HabitHistory, start: Day, today: Day) -> Streaks {
    guard start <= today else { return (0, 0, 0) }
    var run = 0
    var longest = 0
    var completed = 0
    var counted = 0
    for day in start...today {
      switch history.rawStatus(on: day) {
      case .skipped:
        continue
      case .done:
        run += 1
        longest = max(longest, run)
        completed += 1
        counted += 1
      case .none:
        if day == today { continue }
        run = 0
        counted += 1
      }
    }
    return (run, longest, counted == 0 ? 0 : Double(completed) / Double(counted))
  }

  /// Excused weeks are dropped from the sequence; the current week counts only once it meets
  /// its goal.
  private static func weeklyStreaks(
    target: Int, history: HabitHistory, start: Day, today: Day, firstWeekday: Weekday
  ) -> Streaks {
    guard start <= today else { return (0, 0, 0) }
    let firstWeek = start.adding(days: -start.weekday.offset(from: firstWeekday))
    var run = 0
    var longest = 0
    var met = 0
    var counted = 0
    var weekStart = firstWeek
    while weekStart <= today {
      var completed = 0
      var skipped = 0
      for day in weekStart..<min(weekStart.adding(days: 7), today.adding(days: 1)) {
        switch history.rawStatus(on: day) {
        case .done: completed += 1
        case .skipped: skipped += 1
        case .none: break
        }
      }
      let meetsGoal = completed >= target
      let isCurrent = weekStart.adding(days: 7) > today
      if meetsGoal {
        run += 1
        longest = max(longest, run)
        met += 1
        counted += 1
      } else if completed + skipped < target, !isCurrent {
        run = 0
        counted += 1
      }
      weekStart = weekStart.adding(days: 7)
    }
    return (run, longest, counted == 0 ? 0 : Double(met) / Double(counted))
  }

  /// `score = score·m + v·(1−m)` for each day from `start` through `today`, skipped days
  /// leaving it unchanged; weekly habits earn partial credit from the last 14 days.
  private static func score(
    frequency: Frequency, history: HabitHistory, start: Day, today: Day
  ) -> Double {
    guard start <= today else { return 0 }
    switch frequency {
    case .daily:
      let m = multiplier(frequency: 1)
      var score = 0.0
      for day in start...today {
        switch history.rawStatus(on: day) {
        case .skipped: continue
        case .done: score = score * m + (1 - m)
        case .none: score *= m
        }
      }
      return score
    case .weekly(let target):
      let m = multiplier(frequency: Double(target) / 7)
      var score = 0.0
      // Completed days in the 14 days ending at `day`, kept up to date as the window slides
      // (nothing is completed before `start`, so it opens empty).
      var window = 0
      for day in start...today {
        let status = history.rawStatus(on: day)
        if status == .done { window += 1 }
        if history.isCompleted(on: day.adding(days: -14)) { window -= 1 }
        if status == .skipped { continue }
        let value = min(1, Double(window) / Double(2 * target))
        score = score * m + value * (1 - m)
      }
      return score
    }
  }

  private static func multiplier(frequency: Double) -> Double {
    pow(0.5, frequency.squareRoot() / 13)
  }
}
