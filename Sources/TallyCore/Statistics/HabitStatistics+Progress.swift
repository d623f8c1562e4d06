extension HabitStatistics {
  /// The current period's progress as two figures to show side by side: completions this
  /// week over 7 or the weekly target, completions in the period over its times (4 of 3 when
  /// the goal is passed), or the
  /// period's amount over the target with its unit (`5.2` and `10 km`, `≤ 2 cups` for *at most*).
  public func progressFigures(of habit: Habit) -> (done: String, goal: String) {
    if let measure = habit.measure {
      let unit = measure.unit.isEmpty ? "" : " \(measure.unit)"
      let bound = measure.direction == .atMost ? "≤ " : ""
      return ("\(periodAmount ?? .zero)", "\(bound)\(measure.target)\(unit)")
    }
    switch habit.frequency {
    case .daily: return ("\(completionsThisWeek)", "7")
    case .weekly(let target): return ("\(completionsThisWeek)", "\(target)")
    case .weekdays(let days): return ("\(completionsThisWeek)", "\(days.count)")
    case .timesInDays, .monthly: return ("\(periodCompletions)", "\(habit.frequency.times)")
    }
  }
}

/// Which stretch ``HabitStatistics/progressFigures(of:)`` covers.
public enum ProgressPeriod: String, CaseIterable, Sendable {
  case thisWeek, today, thisPeriod, thisMonth

  public init(of habit: Habit) {
    switch habit.frequency {
    case .daily: self = habit.measure == nil ? .thisWeek : .today
    case .weekly, .weekdays: self = .thisWeek
    case .timesInDays: self = .thisPeriod
    case .monthly: self = .thisMonth
    }
  }

  /// As the command line says it: `this week`, `today`, `this period`, `this month`.
  public var english: String {
    switch self {
    case .thisWeek: "this week"
    case .today: "today"
    case .thisPeriod: "this period"
    case .thisMonth: "this month"
    }
  }
}
