import Foundation
import TallyCore
import TallyHTTP

/// A bar chart of a habit's totals per week, month or year (the last 12 of each), as Loop's
/// habit page shows them: amounts for a measurable habit, completed days for a yes/no one.
/// The bars are a picture; the table beside it is what a screen reader reads.
struct TotalsChart: Sendable {
  static let bars = 12

  let id: String
  let heading: String
  let help: String
  let chart: StatisticsModel.Chart

  init(habit: Habit, history: HabitHistory, today: Day, calendar: DayCalendar, by period: TotalsPeriod) {
    let totals = HabitTotals(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday, by: period)
    let shown = Array(totals.buckets.suffix(Self.bars))
    let unit = habit.measure.map { $0.unit.isEmpty ? "" : " \($0.unit)" }
    let what = habit.measure == nil ? "Completions" : "Amounts"
    id = "totals-\(period.rawValue)"
    heading = "\(what) per \(period.rawValue)"
    let values = shown.enumerated().map { index, bucket in
      let value = habit.measure == nil ? Double(bucket.completions) : bucket.amount.doubleValue
      let text = habit.measure == nil ? "\(bucket.completions)" : bucket.amount.description
      let name = Self.name(of: bucket.start, by: period, calendar: calendar)
      let label = period == .week && !(shown.count - 1 - index).isMultiple(of: 2) ? "" : Self.label(bucket.start, by: period, calendar: calendar)
      let spoken = "\(name): \(text)\(unit ?? (bucket.completions == 1 ? " day done" : " days done"))"
      return (label: label, value: value, text: text, spoken: spoken)
    }
    chart = StatisticsModel.chart(values)
    let average = habit.measure == nil ? totals.averageCompletions : totals.averageAmount
    let averageText = Amount(rounding: average).description
    help =
      "Last \(shown.count) \(period.rawValue)\(shown.count == 1 ? "" : "s"): \(chart.total)\(unit ?? " done") in all; "
      + "\(averageText)\(unit ?? "") a \(period.rawValue) on average since tracking started."
  }

  static func label(_ start: Day, by period: TotalsPeriod, calendar: DayCalendar) -> String {
    switch period {
    case .week: "\(start.day) \(calendar.shortMonthName(start.month))"
    case .month: calendar.shortMonthName(start.month)
    case .year: "\(start.year)"
    }
  }

  static func name(of start: Day, by period: TotalsPeriod, calendar: DayCalendar) -> String {
    switch period {
    case .week: "Week of \(calendar.spokenName(of: start, includingYear: true))"
    case .month: "\(calendar.monthName(start.month)) \(start.year)"
    case .year: "\(start.year)"
    }
  }
}
