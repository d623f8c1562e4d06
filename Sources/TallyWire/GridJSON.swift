import TallyCore

/// One habit's contribution grid as `grid HABIT --json` prints it and the API sends it: the
/// engine's weeks of cells, each with the label a screen reader speaks.
public struct HabitGridJSON: Encodable, Sendable {
  public struct Cell: Encodable, Sendable {
    public let day: Day
    public let state: HabitGrid.State
    public let label: String
  }

  /// Columns, oldest first; each holds seven cells from the first weekday.
  public let weeks: [[Cell]]

  public init(_ grid: HabitGrid, calendar: DayCalendar, today: Day) {
    weeks = grid.weeks.map { week in
      week.map { Cell(day: $0.day, state: $0.state, label: $0.spokenLabel(calendar: calendar, today: today)) }
    }
  }
}

/// The activity grid across habits as `grid --json` prints it and the API sends it.
public struct ActivityGridJSON: Encodable, Sendable {
  public struct Cell: Encodable, Sendable {
    public let day: Day
    /// 0–4, the share of tracked habits completed (SPEC 4).
    public let level: Int
    public let completed: Int
    public let tracked: Int
    public let isFuture: Bool
    public let label: String
  }

  public let weeks: [[Cell]]

  public init(_ grid: ActivityGrid, calendar: DayCalendar, today: Day) {
    weeks = grid.weeks.map { week in
      week.map {
        Cell(
          day: $0.day, level: $0.level, completed: $0.completed, tracked: $0.tracked,
          isFuture: $0.isFuture, label: $0.spokenLabel(calendar: calendar, today: today))
      }
    }
  }
}
