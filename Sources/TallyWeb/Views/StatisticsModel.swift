import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyWire

/// What the Statistics page shows (SPEC 4): the overall activity grid, the ranking and two
/// bar charts of completions, all for the habits that are not archived.
struct StatisticsModel: Sendable {
  /// Weeks the grid shows unless `?weeks=` says otherwise: a year of columns on a desktop.
  static let defaultWeeks = 52
  /// On a phone only the newest weeks fit; the older columns are hidden by CSS. A quarter
  /// keeps each square near 20 px on a 375 px screen (26 weeks made them 8 px).
  static let phoneWeeks = 13
  /// The charts look back this many weeks, the current one included.
  static let chartWeeks = 12

  struct Cell: Sendable {
    let label: String
    let level: Int
    let isFuture: Bool
    /// No habit was tracked yet that day: drawn fainter than a day with none done.
    let isUntracked: Bool
    /// Roving focus: today's cell is the grid's one tab stop.
    let tabIndex: Int
    /// Older than the weeks a phone shows.
    let isOld: Bool
  }

  /// One weekday across all the weeks: the grid's rows run from `firstWeekday` down.
  struct Row: Sendable {
    let letter: String
    let weekday: String
    let cells: [Cell]
  }

  struct Level: Sendable {
    let level: Int
    let text: String
  }

  struct Ranked: Sendable {
    let rank: Int
    let name: String
    let icon: String?
    let color: String
    let currentStreak: String
    let longestStreak: String
    let rate: String
    /// The rate as 0–100 for the bar's width in its 100-wide viewBox.
    let rateWidth: String
  }

  struct Bar: Sendable {
    let x: String
    let y: String
    let width: String
    let height: String
    let centre: String
    let valueY: String
    /// The bar's figure as shown: a count, or an amount such as 12.5.
    let value: String
    let hasValue: Bool
    /// Empty where the chart has no room: every other week is labelled, counting back from now.
    let label: String
    let hasLabel: Bool
    let labelY: String
    /// What a screen reader reads for the bar, in the chart's table.
    let spoken: String
  }

  /// A bar chart in a fixed viewBox that CSS scales to the card's width.
  struct Chart: Sendable {
    let width: String
    let height: String
    let baseline: String
    let bars: [Bar]
    /// The bars' sum as shown.
    let total: String
  }

  let hasHabits: Bool
  let weeks: Int
  let rangeText: String
  /// What a phone shows: only the newest ``phoneWeeks`` weeks fit.
  let phoneWeeks: Int
  let phoneRangeText: String
  let rows: [Row]
  let legend: [Level]
  let rankings: [Ranked]
  let weekly: Chart
  let weekdays: Chart
  let chartRange: String
  let weeklyHelp: String
  let weeklyCaption: String
  let weekdayCaption: String

  static func read(
    from store: any Store, user: User, time: UserTime, weeks: Int, words: PageDays
  ) async throws -> StatisticsModel {
    let calendar = time.calendar
    let today = time.today
    let t = words.t
    func range(_ from: Day, _ to: Day, years: Bool) -> String {
      t.text("statistics.range", ["from": words.name(from, includingYear: years), "to": words.name(to, includingYear: years)])
    }
    let habits = try await store.habits(for: user.id, includingArchived: false)
    let histories = habits.isEmpty ? [:] : try await store.histories(for: user.id)
    let grid = ActivityGrid(
      habits: habits.map { ActivityGrid.Input(habit: $0, history: histories[$0.id] ?? HabitHistory([])) },
      today: today, firstWeekday: calendar.firstWeekday, weekCount: weeks)
    let ranking = RankedHabit.ranking(habits, histories: histories, today: today, firstWeekday: calendar.firstWeekday)

    let firstShown = grid.weeks.first?.first?.day ?? today
    let phoneFirst = grid.weeks.suffix(phoneWeeks).first?.first?.day ?? today
    let chartStart = calendar.startOfWeek(containing: today).adding(days: -7 * (chartWeeks - 1))
    let doneDays = habits.flatMap { habit in
      histories[habit.id].map { history in (chartStart...today).filter(history.isCompleted) } ?? []
    }
    let weekly = weeklyChart(doneDays, from: chartStart, words: words)
    return StatisticsModel(
      hasHabits: !habits.isEmpty,
      weeks: grid.weeks.count,
      rangeText: t.plural("statistics.weeksRange", count: grid.weeks.count, ["range": range(firstShown, today, years: true)]),
      phoneWeeks: min(phoneWeeks, grid.weeks.count),
      phoneRangeText: t.plural(
        "statistics.weeksRange", count: min(phoneWeeks, grid.weeks.count), ["range": range(phoneFirst, today, years: true)]),
      rows: rows(of: grid, words: words, today: today),
      legend: (0...4).map { Level(level: $0, text: t.text("statistics.level\($0)")) },
      rankings: ranking.enumerated().map { index, ranked in
        let statistics = ranked.statistics
        let percent = (statistics.completionRate * 100).rounded()
        return Ranked(
          rank: index + 1, name: ranked.habit.name, icon: ranked.habit.icon, color: ranked.habit.color.css,
          currentStreak: t.plural("length.\(statistics.streakUnit.rawValue)", count: statistics.currentStreak),
          longestStreak: t.plural("length.\(statistics.streakUnit.rawValue)", count: statistics.longestStreak),
          rate: words.percent(statistics.completionRate), rateWidth: DateCircleSVG.number(percent))
      },
      weekly: weekly,
      weekdays: weekdayChart(doneDays, words: words),
      chartRange: t.plural("statistics.sameWeeks", count: chartWeeks, ["range": range(chartStart, today, years: false)]),
      weeklyHelp: t.plural("statistics.weeklyHelp", count: chartWeeks, ["total": weekly.total]),
      weeklyCaption: t.plural("statistics.weeklyCaption", count: chartWeeks),
      weekdayCaption: t.plural("statistics.weekdayCaption", count: chartWeeks))
  }

  /// The engine's week columns turned into weekday rows, as an ARIA grid reads them.
  static func rows(of grid: ActivityGrid, words: PageDays, today: Day) -> [Row] {
    let oldColumns = max(0, grid.weeks.count - phoneWeeks)
    return words.names.orderedWeekdays.enumerated().map { index, weekday in
      Row(
        letter: words.shortWeekday(weekday), weekday: words.weekdayName(weekday),
        cells: grid.weeks.enumerated().map { column, week in
          let cell = week[index]
          return Cell(
            label: words.name(cell.day, near: today) + words.t.text("dayCell.separator") + spoken(cell, words.t),
            level: cell.level,
            isFuture: cell.isFuture, isUntracked: !cell.isFuture && cell.tracked == 0, tabIndex: cell.day == today ? 0 : -1, isOld: column < oldColumns)
        })
    }
  }

  /// What a screen reader says of a day after its date: "2 of 3 habits done".
  static func spoken(_ cell: ActivityGrid.Cell, _ t: Translator) -> String {
    if cell.isFuture { return t.text("gridState.future") }
    if cell.tracked == 0 { return t.text("statistics.noneTracked") }
    return t.plural("statistics.cellDone", count: cell.tracked, ["done": t.number(cell.completed)])
  }

  // MARK: Charts

  static let chartWidth = 336.0
  static let chartHeight = 150.0
  /// Room above the bars for their values and below for their labels.
  static let chartTop = 16.0
  static let chartBottom = 20.0
  /// Room at each end so the outer labels are not cut off.
  static let chartSide = 14.0

  static func weeklyChart(_ days: [Day], from start: Day, words: PageDays) -> Chart {
    let counts = (0..<chartWeeks).map { week in
      let first = start.adding(days: 7 * week)
      return (first, days.filter { $0 >= first && $0 <= first.adding(days: 6) }.count)
    }
    return chart(
      counts.enumerated().map { index, week in
        let (first, count) = week
        return (
          (chartWeeks - 1 - index).isMultiple(of: 2) ? words.shortDayAndMonth(first) : "",
          count,
          words.t.text(
            "statistics.spokenCount",
            ["name": words.t.text("totals.weekOf", ["day": words.name(first)]), "count": words.t.number(count)])
        )
      })
  }

  static func weekdayChart(_ days: [Day], words: PageDays) -> Chart {
    chart(
      words.names.orderedWeekdays.map { weekday in
        let count = days.filter { $0.weekday == weekday }.count
        return (
          words.shortWeekday(weekday), count,
          words.t.text(
            "statistics.spokenCount", ["name": words.weekdayName(weekday), "count": words.t.number(count)])
        )
      })
  }

  /// Bars scaled to the largest value; an empty chart keeps flat bars on the baseline.
  static func chart(_ values: [(label: String, value: Int, spoken: String)]) -> Chart {
    chart(values.map { ($0.label, Double($0.value), "\($0.value)", $0.spoken) })
  }

  /// Bars for any figures, each with the text shown over it.
  static func chart(_ values: [(label: String, value: Double, text: String, spoken: String)]) -> Chart {
    let plot = chartHeight - chartTop - chartBottom
    let slot = (chartWidth - 2 * chartSide) / Double(values.count)
    let largest = max(1, values.map { $0.value }.max() ?? 0)
    let baseline = chartTop + plot
    let bars = values.enumerated().map { index, item in
      let height = max(1, plot * item.value / largest)
      let width = slot * 0.62
      let x = chartSide + slot * Double(index) + (slot - width) / 2
      return Bar(
        x: DateCircleSVG.number(x), y: DateCircleSVG.number(baseline - height),
        width: DateCircleSVG.number(width), height: DateCircleSVG.number(height),
        centre: DateCircleSVG.number(x + width / 2), valueY: DateCircleSVG.number(baseline - height - 4),
        value: item.text, hasValue: item.value > 0, label: item.label, hasLabel: !item.label.isEmpty,
        labelY: DateCircleSVG.number(chartHeight - 5), spoken: item.spoken)
    }
    return Chart(
      width: DateCircleSVG.number(chartWidth), height: DateCircleSVG.number(chartHeight),
      baseline: DateCircleSVG.number(baseline), bars: bars,
      total: Amount(rounding: values.reduce(0) { $0 + $1.value }).description)
  }
}
