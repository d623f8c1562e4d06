import Foundation
import TallyCore
import TallyHTTP
import TallyStore

/// The habit page: statistics, the whole contribution grid sized to the screen, the day being
/// edited (skip or note), and the strength score over the last half year.
struct HabitDetail: Sendable {
  struct Stat: Sendable {
    let label: String
    let value: String
  }

  struct DayEditor: Sendable {
    let day: String
    let heading: String
    let done: Bool
    let skipped: Bool
    let open: Bool
    let note: String
    /// For a measurable habit: the day's amount as typed, and its unit.
    let measure: EditorMeasure?
  }

  struct EditorMeasure: Sendable {
    let amount: String
    /// `nil` for a habit counted without a unit, so the label says no "in".
    let unit: String?
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
  /// "142 days done in the last year": the count a back-filler checks against.
  let yearTotal: String
  let editor: DayEditor?
  let score: ScoreChart
  /// Amounts (measurable) or completions per week, month and year, as Loop shows them.
  let charts: [TotalsChart]
  let measurable: Bool
  let back: String
  /// The habit's pauses and those of all habits that have not ended, and whether one of its
  /// own holds today.
  let pauses: [PauseRow]
  let isPaused: Bool
  /// What "Resume today" makes of each of the habit's pauses, for the offline app.
  let resumeChanges: String
  let today: String
  /// Whether the grid shows days outside the habit's weekdays, for its key.
  let hasWeekdays: Bool

  init(
    habit: Habit, entries: [HabitEntry], pauses: [Pause] = [], today: Day, calendar: DayCalendar, width: Double,
    editing: Day?, until: Day? = nil
  ) {
    let history = HabitHistory(entries).pausing(PausedDays(pauses, habit: habit.id))
    self.pauses = PauseRow.rows(pauses, habit: habit.id, today: today, words: PageDays(speech: .english, calendar: calendar))
    let own = pauses.filter { $0.habitID == habit.id }
    isPaused = own.contains { $0.days.contains(today) }
    resumeChanges = PauseRow.resumeChanges(own, on: today)
    self.today = today.description
    if case .weekdays = habit.frequency { hasWeekdays = true } else { hasWeekdays = false }
    let statistics = HabitStatistics(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday)
    self.habit = HabitSummary(
      habit, entries: entries, history: history, statistics: statistics, today: today,
      words: PageDays(speech: .english, calendar: calendar))
    let unit = statistics.streakUnit.rawValue
    func count(_ n: Int) -> String { n == 1 ? "1 \(unit)" : "\(n) \(unit)s" }
    stats = [
      Stat(label: "Current streak", value: count(statistics.currentStreak)),
      Stat(label: "Longest streak", value: count(statistics.longestStreak)),
      Stat(label: "Completion rate", value: Self.percent(statistics.completionRate)),
      Stat(label: HabitStatistics.progressPeriod(of: habit).capitalized, value: self.habit.progressCount),
      Stat(label: "Strength", value: Self.percent(statistics.score)),
    ]
    frequencyText =
      switch habit.frequency {
      case .daily: "Every day"
      case .weekly(let k): "\(k) \(k == 1 ? "day" : "days") a week"
      case .timesInDays(let k, let n): "\(k) \(k == 1 ? "time" : "times") in \(n) days"
      case .monthly(let k): "\(k) \(k == 1 ? "day" : "days") a month"
      case .weekdays(let days):
        "Every " + Self.list(days.ordered(from: calendar.firstWeekday).map { $0.name.capitalized })
      }
    reminderText =
      switch habit.reminder {
      case .none: "No reminder"
      case .single(let time): "Reminder at \(time)"
      case .periodic(let start, let end, let every):
        "Reminders every \(every) \(every == 1 ? "hour" : "hours") from \(start) to \(end)"
      }
    grid = Grid(
      habit: habit, entries: entries, history: history, today: today, calendar: calendar, width: width,
      editing: editing, until: until)
    let yearDone = entries.filter { $0.status == .done && $0.day > today.adding(days: -365) && $0.day <= today }.count
    yearTotal = yearDone == 1 ? "1 day done in the last year" : "\(yearDone) days done in the last year"
    editor = editing.map { day in
      let entry = entries.first { $0.day == day }
      return DayEditor(
        day: day.description, heading: calendar.spokenName(of: day, includingYear: true),
        done: entry?.status == .done, skipped: entry?.status == .skipped, open: entry.map { $0.status == .noted } ?? true,
        note: entry?.note ?? "",
        measure: habit.measure.map { EditorMeasure(amount: entry?.amount?.description ?? "", unit: $0.unit.isEmpty ? nil : $0.unit) })
    }
    score = Self.score(habit: habit, history: history, today: today, calendar: calendar)
    measurable = habit.measure != nil
    charts = TotalsPeriod.allCases.map {
      TotalsChart(habit: habit, history: history, today: today, calendar: calendar, by: $0)
    }
    back = "/habits/\(habit.id.storeText)"
  }

  /// "Monday, Wednesday and Friday".
  static func list(_ items: [String]) -> String {
    items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
  }

  static func percent(_ share: Double) -> String {
    "\(Int((share * 100).rounded()))%"
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
