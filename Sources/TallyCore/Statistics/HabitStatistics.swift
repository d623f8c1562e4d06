import Foundation

/// A habit's figures as of one day (SPEC 3).
public struct HabitStatistics: Hashable, Codable, Sendable {
  /// Periods meeting the goal: days, weeks, months or blocks of days (``streakUnit``).
  public var currentStreak: Int
  public var longestStreak: Int
  public var streakUnit: StreakUnit
  /// 0–1: goal-meeting periods over the periods that count.
  public var completionRate: Double
  public var completionsThisWeek: Int
  /// 0–1: this week's completions over 7 (daily) or over the weekly target; for other
  /// schedules and measurable habits, ``periodProgress``.
  public var weeklyProgress: Double
  /// Habit strength 0–1, an exponential average after Loop Habit Tracker.
  public var score: Double
  /// 0–1: how far the current period is towards its goal (for *at most*, how far within it).
  public var periodProgress: Double
  /// The current period's summed amount; `nil` for yes/no habits.
  public var periodAmount: Amount?
  /// Done days in the current period, uncapped (``periodProgress`` stops at the goal).
  public var periodCompletions: Int

  public init(
    currentStreak: Int, longestStreak: Int, streakUnit: StreakUnit, completionRate: Double,
    completionsThisWeek: Int, weeklyProgress: Double, score: Double,
    periodProgress: Double? = nil, periodAmount: Amount? = nil, periodCompletions: Int = 0
  ) {
    self.currentStreak = currentStreak
    self.longestStreak = longestStreak
    self.streakUnit = streakUnit
    self.completionRate = completionRate
    self.completionsThisWeek = completionsThisWeek
    self.weeklyProgress = weeklyProgress
    self.score = score
    self.periodProgress = periodProgress ?? weeklyProgress
    self.periodAmount = periodAmount
    self.periodCompletions = periodCompletions
  }

  /// Computes every figure in one walk over the periods from the tracking start to `today`.
  /// Entries after `today` are ignored.
  public init(habit: Habit, history: HabitHistory, today: Day, firstWeekday: Weekday) {
    let start = history.trackingStart(createdDay: habit.createdDay)
    let weekStart = today.startOfWeek(firstWeekday: firstWeekday)
    var completionsThisWeek = 0
    for day in weekStart...today where history.isCompleted(on: day) {
      completionsThisWeek += 1
    }
    let walk = PeriodWalk(habit: habit, history: history, start: start, today: today, firstWeekday: firstWeekday)
    let weeklyProgress: Double =
      switch (habit.frequency, habit.measure) {
      case (.daily, nil): min(1, Double(completionsThisWeek) / 7)
      case (.weekly(let target), nil): min(1, Double(completionsThisWeek) / Double(target))
      case (.weekdays(let days), nil): min(1, Double(completionsThisWeek) / Double(days.count))
      default: walk.progress
      }
    self.init(
      currentStreak: walk.run, longestStreak: walk.longest, streakUnit: habit.frequency.streakUnit,
      completionRate: walk.counted == 0 ? 0 : Double(walk.met) / Double(walk.counted),
      completionsThisWeek: completionsThisWeek, weeklyProgress: weeklyProgress,
      score: HabitStatistics.score(habit: habit, history: history, start: start, today: today),
      periodProgress: walk.progress,
      periodAmount: habit.measure == nil ? nil : Amount(thousandths: walk.amount),
      periodCompletions: walk.completions)
  }

  /// `score = score·m + v·(1−m)` for each day from `start` through `today`, skipped days and
  /// neutral days without a done entry (outside the weekdays, paused) leaving it unchanged,
  /// `m = 0.5^(√f / 13)` with f the schedule's times over its window.
  /// v is the share of the goal reached in the window ending that day: completed days over
  /// the times asked (window and times doubled for yes/no schedules rarer than daily), or the
  /// summed amount's ``Measure/share(of:)``. *At most* habits start at 1, as in Loop.
  static func score(habit: Habit, history: HabitHistory, start: Day, today: Day) -> Double {
    guard habit.mayRest(history) else {
      return score(habit: habit, history: history, start: start, today: today, resting: NeverResting())
    }
    let resting = ScheduledRest(frequency: habit.frequency, paused: history.paused)
    return score(habit: habit, history: history, start: start, today: today, resting: resting)
  }

  private static func score(
    habit: Habit, history: HabitHistory, start: Day, today: Day, resting: some RestingDays
  ) -> Double {
    let frequency = habit.frequency
    let doubled = habit.measure == nil && frequency.times < frequency.windowDays
    let window = frequency.windowDays * (doubled ? 2 : 1)
    let needed = Double(frequency.times * (doubled ? 2 : 1))
    let m = pow(0.5, (Double(frequency.times) / Double(frequency.windowDays)).squareRoot() / 13)
    var score = habit.measure?.direction == .atMost ? 1.0 : 0.0
    guard start <= today else { return score }
    if habit.measure == nil, window == 1 {
      // Daily or weekday yes/no, the common case: v is the day itself.
      for day in start...today {
        switch history.rawStatus(on: day) {
        case .skipped: continue
        case .done: score = score * m + (1 - m)
        case .none: if !resting.isNeutral(day) { score *= m }
        }
      }
      return score
    }
    // What the window ending at `day` holds, kept up to date as it slides (nothing is
    // completed or measured before `start`, so it opens empty).
    var completed = 0
    var total: Int64 = 0
    for day in start...today {
      let status = history.rawStatus(on: day)
      let leaving = day.adding(days: -window)
      let value: Double
      if let measure = habit.measure {
        total += history.thousandths(on: day) - history.thousandths(on: leaving)
        value = measure.share(of: Amount(thousandths: total))
      } else {
        if status == .done { completed += 1 }
        if history.isCompleted(on: leaving) { completed -= 1 }
        value = min(1, Double(completed) / needed)
      }
      if status == .skipped { continue }
      if status != .done, resting.isNeutral(day) { continue }
      score = score * m + value * (1 - m)
    }
    return score
  }
}

/// One pass over a habit's periods from the one holding the tracking start to the one holding
/// today, keeping the runs and counts SPEC 3 asks for.
struct PeriodWalk {
  var run = 0
  var longest = 0
  var met = 0
  var counted = 0
  /// The current period's share of its goal, its summed thousandths and its done days.
  var progress = 0.0
  var amount: Int64 = 0
  var completions = 0

  init(habit: Habit, history: HabitHistory, start: Day, today: Day, firstWeekday: Weekday) {
    guard habit.mayRest(history) else {
      self.init(habit: habit, history: history, start: start, today: today, firstWeekday: firstWeekday, resting: NeverResting())
      return
    }
    let resting = ScheduledRest(frequency: habit.frequency, paused: history.paused)
    self.init(habit: habit, history: history, start: start, today: today, firstWeekday: firstWeekday, resting: resting)
  }

  private init(
    habit: Habit, history: HabitHistory, start: Day, today: Day, firstWeekday: Weekday, resting: some RestingDays
  ) {
    guard start <= today else { return }
    let frequency = habit.frequency
    if frequency.windowDays == 1 {
      // A period is a day (daily and weekday schedules): read it in place rather than
      // tallying a one-day range.
      for day in start...today {
        let status = history.rawStatus(on: day)
        let total = history.thousandths(on: day)
        let meets: Bool
        if let measure = habit.measure {
          meets = status != .skipped && measure.isMet(by: Amount(thousandths: total))
        } else {
          meets = status == .done
        }
        // A neutral day counts only when completed: for a measurable habit, an entry that meets
        // the goal (an *at most* day with nothing entered is not a completed one).
        let neutral = resting.isNeutral(day)
        count(
          meets: meets && (!neutral || status == .done), excused: status == .skipped || neutral,
          isCurrent: day == today)
        if day == today {
          progress = habit.measure?.share(of: Amount(thousandths: total)) ?? (meets ? 1 : 0)
          amount = total
          completions = status == .done ? 1 : 0
        }
      }
      return
    }
    var period = frequency.period(containing: start, anchor: start, firstWeekday: firstWeekday)
    while period.lowerBound <= today {
      let tally = PeriodTally(history: history, period: period, through: today, resting: resting)
      let isCurrent = period.upperBound >= today
      count(meets: tally.meetsGoal(of: habit), excused: tally.isExcused(for: habit), isCurrent: isCurrent)
      if isCurrent {
        progress = tally.share(of: habit)
        amount = tally.total
        completions = tally.completed
      }
      period = frequency.period(containing: period.upperBound.adding(days: 1), anchor: start, firstWeekday: firstWeekday)
    }
  }

  /// Excused periods are left out; the current one counts only once it meets its goal.
  private mutating func count(meets: Bool, excused: Bool, isCurrent: Bool) {
    if meets {
      run += 1
      longest = max(longest, run)
      met += 1
      counted += 1
    } else if !excused, !isCurrent {
      run = 0
      counted += 1
    }
  }
}

/// What one period holds, up to today, and how many of its days (future ones too) are paused.
struct PeriodTally {
  var length: Int
  var unpaused: Int
  var days = 0
  var completed = 0
  /// Skipped days that are not paused (a paused day is neutral already).
  var skipped = 0
  /// Paused days up to today.
  var paused = 0
  var total: Int64 = 0

  init(history: HabitHistory, period: ClosedRange<Day>, through today: Day, resting: some RestingDays) {
    length = period.lowerBound.days(to: period.upperBound) + 1
    unpaused = length - resting.pausedCount(in: period)
    for day in period.lowerBound...min(period.upperBound, today) {
      days += 1
      let status = history.rawStatus(on: day)
      if resting.isPaused(day) {
        paused += 1
        if status == .done { completed += 1 }
      } else {
        switch status {
        case .done: completed += 1
        case .skipped: skipped += 1
        case .none: break
        }
      }
      total += history.thousandths(on: day)
    }
  }

  /// Days up to today that are skipped or paused.
  var neutral: Int { skipped + paused }

  /// Completed days the period asks for with its paused days taken out.
  func needed(of habit: Habit) -> Int {
    habit.frequency.times(unpaused: unpaused, of: length)
  }

  /// Yes/no: at least the needed completed days, or the whole goal in a wholly paused period.
  /// Measurable: the summed amount reaches the (paused-scaled) target or stays within the
  /// limit, in a period with a day that is neither skipped nor paused, or a completed one.
  func meetsGoal(of habit: Habit) -> Bool {
    guard let measure = habit.measure else {
      let needed = needed(of: habit)
      return completed >= (needed == 0 ? habit.frequency.times : needed)
    }
    return (completed > 0 || neutral < days)
      && measure.target(unpaused: unpaused, of: length).isMet(by: Amount(thousandths: total))
  }

  /// A period that misses its goal but is left out of streaks and rates: yes/no, when its
  /// skipped days could have made up the difference or every day is paused; measurable,
  /// when every day so far is skipped or paused.
  func isExcused(for habit: Habit) -> Bool {
    guard habit.measure != nil else {
      let needed = needed(of: habit)
      return needed == 0 || completed + skipped >= needed
    }
    return neutral == days
  }

  func share(of habit: Habit) -> Double {
    guard let measure = habit.measure else {
      let needed = needed(of: habit)
      return min(1, Double(completed) / Double(needed == 0 ? habit.frequency.times : needed))
    }
    return measure.target(unpaused: unpaused, of: length).share(of: Amount(thousandths: total))
  }
}
