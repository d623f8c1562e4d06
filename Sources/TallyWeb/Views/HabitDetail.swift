import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
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
    /// "Amount in km", or "Amount" for a habit counted without a unit.
    let label: String
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
    habit: Habit, entries: [HabitEntry], pauses: [Pause] = [], today: Day, words: PageDays, width: Double,
    editing: Day?, until: Day? = nil
  ) {
    let (calendar, t) = (words.calendar, words.t)
    let history = HabitHistory(entries).pausing(PausedDays(pauses, habit: habit.id))
    self.pauses = PauseRow.rows(pauses, habit: habit.id, today: today, words: words)
    let own = pauses.filter { $0.habitID == habit.id }
    isPaused = own.contains { $0.days.contains(today) }
    resumeChanges = PauseRow.resumeChanges(own, on: today)
    self.today = today.description
    if case .weekdays = habit.frequency { hasWeekdays = true } else { hasWeekdays = false }
    let statistics = HabitStatistics(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday)
    self.habit = HabitSummary(
      habit, entries: entries, history: history, statistics: statistics, today: today,
      words: HabitSummary.Words(words))
    let unit = statistics.streakUnit.rawValue
    func count(_ n: Int) -> String { t.plural("length.\(unit)", count: n) }
    let period = words.progressPeriod(of: habit)
    stats = [
      Stat(label: t.text("habit.currentStreak"), value: count(statistics.currentStreak)),
      Stat(label: t.text("habit.longestStreak"), value: count(statistics.longestStreak)),
      Stat(label: t.text("habit.completionRate"), value: words.percent(statistics.completionRate)),
      Stat(label: period.prefix(1).uppercased(with: t.locale) + period.dropFirst(), value: self.habit.progressCount),
      Stat(label: t.text("habit.strength"), value: words.percent(statistics.score)),
    ]
    frequencyText =
      switch habit.frequency {
      case .daily: t.text("habit.everyDay")
      case .weekly(let k): t.plural("habit.daysAWeek", count: k)
      case .timesInDays(let k, let n): t.plural("habit.timesInDays", count: k, ["days": t.number(n)])
      case .monthly(let k): t.plural("habit.daysAMonth", count: k)
      case .weekdays(let days):
        t.text("habit.everyWeekday", ["days": words.list(days.ordered(from: calendar.firstWeekday).map(words.weekdayName))])
      }
    reminderText =
      switch habit.reminder {
      case .none: t.text("habit.noReminder")
      case .single(let time): t.text("habit.reminderAt", ["time": words.time(time)])
      case .periodic(let start, let end, let every):
        t.plural("habit.remindersEvery", count: every, ["start": words.time(start), "end": words.time(end)])
      }
    grid = Grid(
      habit: habit, entries: entries, history: history, today: today, words: words, width: width,
      editing: editing, until: until)
    let yearDone = entries.filter { $0.status == .done && $0.day > today.adding(days: -365) && $0.day <= today }.count
    yearTotal = t.plural("habit.yearTotal", count: yearDone)
    editor = editing.map { day in
      let entry = entries.first { $0.day == day }
      return DayEditor(
        day: day.description, heading: words.name(day, includingYear: true),
        done: entry?.status == .done, skipped: entry?.status == .skipped, open: entry.map { $0.status == .noted } ?? true,
        note: entry?.note ?? "",
        measure: habit.measure.map { measure in
          EditorMeasure(
            amount: entry?.amount?.description ?? "",
            label: measure.unit.isEmpty ? t.text("habit.amount") : t.text("habit.amountIn", ["unit": measure.unit]))
        })
    }
    score = Self.score(habit: habit, history: history, today: today, words: words)
    measurable = habit.measure != nil
    charts = TotalsPeriod.allCases.map {
      TotalsChart(habit: habit, history: history, today: today, words: words, by: $0)
    }
    back = "/habits/\(habit.id.storeText)"
  }

  /// The strength score at the end of each of the last 26 weeks, as a line.
  static func score(habit: Habit, history: HabitHistory, today: Day, words: PageDays) -> ScoreChart {
    let samples = (0..<26).reversed().map { weeksAgo -> Double in
      let day = today.adding(days: -7 * weeksAgo)
      return HabitStatistics(habit: habit, history: history, today: day, firstWeekday: words.calendar.firstWeekday).score
    }
    let step = ScoreChart.width / Double(samples.count - 1)
    let points = samples.enumerated().map { index, score in
      "\(DateCircleSVG.number(Double(index) * step)),\(DateCircleSVG.number((1 - score) * (ScoreChart.height - 4) + 2))"
    }.joined(separator: " ")
    let first = words.percent(samples.first ?? 0)
    let last = words.percent(samples.last ?? 0)
    return ScoreChart(
      points: points,
      summary: words.t.text("habit.strengthSummary", ["weeks": words.t.number(samples.count), "first": first, "last": last]),
      current: last)
  }
}
