import Foundation
import TallyCore
import TallyStore

/// The habit page: statistics, the whole contribution grid sized to the screen, the day being
/// edited (skip or note), and the strength score over the last half year.
struct HabitDetail: Sendable {
  struct Stat: Sendable {
    let label: String
    let value: String
  }

  struct GridCell: Sendable {
    let day: String
    let label: String
    let x: String
    let y: String
    let paint: String
    let tabIndex: Int
  }

  struct GridRow: Sendable {
    let letter: String
    let y: String
    let cells: [GridCell]
  }

  /// SPEC 4's grid as SVG; `layoutWidth` is the width it was sized for.
  struct Grid: Sendable {
    static let cell = 14.0
    static let gap = 3.0
    static let labelWidth = 18.0

    let width: String
    let height: String
    let layoutWidth: String
    let rows: [GridRow]
  }

  struct DayEditor: Sendable {
    let day: String
    let heading: String
    let done: Bool
    let skipped: Bool
    let open: Bool
    let note: String
  }

  struct ScoreChart: Sendable {
    static let width = 320.0
    static let height = 96.0
    let points: String
    let summary: String
    let current: String
  }

  let habit: HabitSummary
  let stats: [Stat]
  let frequencyText: String
  let reminderText: String
  let grid: Grid
  let editor: DayEditor?
  let score: ScoreChart
  let back: String

  init(
    habit: Habit, entries: [HabitEntry], today: Day, calendar: DayCalendar, width: Double, editing: Day?
  ) {
    let history = HabitHistory(entries)
    let statistics = HabitStatistics(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday)
    self.habit = HabitSummary(habit, history: history, today: today, calendar: calendar)
    let unit = statistics.streakUnit == .day ? "day" : "week"
    func count(_ n: Int) -> String { n == 1 ? "1 \(unit)" : "\(n) \(unit)s" }
    stats = [
      Stat(label: "Current streak", value: count(statistics.currentStreak)),
      Stat(label: "Longest streak", value: count(statistics.longestStreak)),
      Stat(label: "Completion rate", value: Self.percent(statistics.completionRate)),
      Stat(label: "This week", value: self.habit.progressCount),
      Stat(label: "Strength", value: Self.percent(statistics.score)),
    ]
    frequencyText =
      switch habit.frequency {
      case .daily: "Every day"
      case .weekly(let k): "\(k) \(k == 1 ? "day" : "days") a week"
      }
    reminderText =
      switch habit.reminder {
      case .none: "No reminder"
      case .single(let time): "Reminder at \(time)"
      case .periodic(let start, let end, let every):
        "Reminders every \(every) \(every == 1 ? "hour" : "hours") from \(start) to \(end)"
      }
    grid = Self.grid(habit: habit, history: history, today: today, calendar: calendar, width: width, editing: editing)
    editor = editing.map { day in
      let entry = entries.first { $0.day == day }
      return DayEditor(
        day: day.description, heading: calendar.spokenName(of: day, includingYear: true),
        done: entry?.status == .done, skipped: entry?.status == .skipped, open: entry == nil,
        note: entry?.note ?? "")
    }
    score = Self.score(habit: habit, history: history, today: today, calendar: calendar)
    back = "/habits/\(habit.id.storeText)"
  }

  static func percent(_ share: Double) -> String {
    "\(Int((share * 100).rounded()))%"
  }

  static func grid(
    habit: Habit, history: HabitHistory, today: Day, calendar: DayCalendar, width: Double, editing: Day?
  ) -> Grid {
    let weeks = GridGeometry.weekCount(width: width - Grid.labelWidth, cellSize: Grid.cell, gap: Grid.gap)
    let grid = HabitGrid(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday, weekCount: weeks)
    let pitch = Grid.cell + Grid.gap
    let focused = editing ?? today
    let rows = (0..<7).map { row in
      let letterDay = grid.weeks[0][row].day
      return GridRow(
        letter: calendar.dayLetter(for: letterDay),
        y: DateCircleSVG.number(Double(row) * pitch + Grid.cell / 2),
        cells: grid.weeks.enumerated().compactMap { column, week in
          let cell = week[row]
          guard cell.state != .future else { return nil }
          return GridCell(
            day: cell.day.description, label: cell.spokenLabel(calendar: calendar, today: today),
            x: DateCircleSVG.number(Grid.labelWidth + Double(column) * pitch),
            y: DateCircleSVG.number(Double(row) * pitch),
            paint: paint(cell.state, color: habit.color.css),
            tabIndex: cell.day == focused ? 0 : -1)
        })
    }
    return Grid(
      width: DateCircleSVG.number(Grid.labelWidth + Double(weeks) * pitch - Grid.gap),
      height: DateCircleSVG.number(7 * pitch - Grid.gap), layoutWidth: DateCircleSVG.number(width), rows: rows)
  }

  /// Done in the habit's colour; the rest in theme classes so both themes read well.
  private static func paint(_ state: HabitGrid.State, color: String) -> String {
    switch state {
    case .done: #"fill="\#(color)""#
    case .skipped: #"class="cell-skipped""#
    case .beforeStart: #"class="cell-before""#
    case .empty, .future: #"class="cell-empty""#
    }
  }

  /// The strength score at the end of each of the last 26 weeks, as a line.
  static func score(habit: Habit, history: HabitHistory, today: Day, calendar: DayCalendar) -> ScoreChart {
    let samples = (0..<26).reversed().map { weeksAgo -> Double in
      let day = today.adding(days: -7 * weeksAgo)
      return HabitStatistics(habit: habit, history: history, today: day, firstWeekday: calendar.firstWeekday).score
    }
    let step = ScoreChart.width / Double(samples.count - 1)
    let points = samples.enumerated().map { index, score in
      "\(DateCircleSVG.number(Double(index) * step)),\(DateCircleSVG.number((1 - score) * (ScoreChart.height - 4) + 2))"
    }.joined(separator: " ")
    let first = percent(samples.first ?? 0)
    let last = percent(samples.last ?? 0)
    return ScoreChart(
      points: points, summary: "Strength over the last 26 weeks: from \(first) to \(last).", current: last)
  }
}
