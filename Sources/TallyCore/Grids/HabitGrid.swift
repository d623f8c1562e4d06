/// One habit's GitHub-style grid: a column per week, oldest on the left, rows from the first
/// weekday, ending with the week that holds today (SPEC 4), or an earlier week when paging back.
public struct HabitGrid: Hashable, Codable, Sendable {
  public enum State: String, Codable, Sendable {
    /// After today: blank and inert.
    case future
    /// Before the tracking start and without an entry: dimmed.
    case beforeStart
    case done
    case skipped
    /// Tracked, nothing recorded: not done.
    case empty
    /// Nothing recorded on a day outside the habit's weekdays: neutral, not due.
    case unscheduled
    /// Nothing recorded on a paused day: neutral, not due.
    case paused
  }

  public struct Cell: Hashable, Codable, Sendable {
    public let day: Day
    public let state: State
    /// A measurable habit's amount that day (done days only).
    public let amount: Amount?
    /// 0–1: how far the amount goes towards the goal (``Measure/share(of:)``), for shading;
    /// `nil` for yes/no habits.
    public let share: Double?

    public init(day: Day, state: State, amount: Amount? = nil, share: Double? = nil) {
      self.day = day
      self.state = state
      self.amount = amount
      self.share = share
    }
    /// Days up to today toggle, including ones before the habit was created (back-filling).
    public var isToggleable: Bool { state != .future }
  }

  /// Columns, oldest first; each holds seven cells in weekday order.
  public let weeks: [[Cell]]

  /// `endingIn` names a day of the last column (today when nil; a later day is taken as today).
  public init(
    habit: Habit, history: HabitHistory, today: Day, firstWeekday: Weekday, weekCount: Int, endingIn: Day? = nil
  ) {
    let start = history.trackingStart(createdDay: habit.createdDay)
    let last = min(endingIn ?? today, today)
    weeks = GridGeometry.weekStarts(weekCount: weekCount, today: last, firstWeekday: firstWeekday)
      .map { weekStart in
        (0..<7).map { offset in
          let day = weekStart.adding(days: offset)
          let state = HabitGrid.state(of: day, habit, history, start: start, today: today)
          guard let measure = habit.measure, state == .done else { return Cell(day: day, state: state) }
          let amount = history.amount(on: day)
          // The measure's own share: for *at most*, staying under the target is the full square.
          return Cell(day: day, state: state, amount: amount, share: measure.share(of: amount))
        }
      }
  }

  /// An entry shows even before the tracking start (a skipped back-filled day is still data);
  /// only empty days there are dimmed. A neutral day (paused, outside the weekdays) without an
  /// entry says why it is not due.
  private static func state(of day: Day, _ habit: Habit, _ history: HabitHistory, start: Day, today: Day) -> State {
    if day > today { return .future }
    switch history.status(on: day) {
    case .done: return .done
    case .skipped: return .skipped
    case .noted, nil:
      if history.isPaused(on: day) { return .paused }
      if !habit.frequency.isScheduled(on: day) { return .unscheduled }
      return day < start ? .beforeStart : .empty
    }
  }
}

extension HabitGrid.State {
  /// Words for a screen reader, after the date: "Monday 1 September, completed".
  public var spokenText: String {
    switch self {
    case .future: "upcoming"
    case .beforeStart: "before tracking started"
    case .done: "completed"
    case .skipped: "skipped"
    case .empty: "not done"
    case .unscheduled: "not scheduled"
    case .paused: "paused"
    }
  }
}

extension HabitGrid.Cell {
  /// "Monday 1 September, completed"; the year is said only when it is not today's.
  public func spokenLabel(calendar: DayCalendar, today: Day) -> String {
    let date = calendar.spokenName(of: day, includingYear: day.year != today.year)
    guard let amount else { return "\(date), \(state.spokenText)" }
    return "\(date), \(amount)"
  }

  /// 0–4 for shading a measurable day: 0 nothing, 4 the whole target, 1–3 the quarters between.
  public var shareLevel: Int? {
    share.map { $0 <= 0 ? 0 : max(1, min(4, Int(($0 * 4).rounded(.up)))) }
  }
}
