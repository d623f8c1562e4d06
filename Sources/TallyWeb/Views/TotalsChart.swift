import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization

/// A bar chart of a habit's totals per week, month or year (the last 12 of each), as Loop's
/// habit page shows them: amounts for a measurable habit, completed days for a yes/no one.
/// The bars are a picture; the table beside it is what a screen reader reads.
struct TotalsChart: Sendable {
  static let bars = 12

  let id: String
  let heading: String
  let help: String
  let chart: StatisticsModel.Chart

  init(habit: Habit, history: HabitHistory, today: Day, words: PageDays, by period: TotalsPeriod) {
    let t = words.t
    let totals = HabitTotals(
      habit: habit, history: history, today: today, firstWeekday: words.calendar.firstWeekday, by: period)
    let shown = Array(totals.buckets.suffix(Self.bars))
    let unit = habit.measure.map { $0.unit.isEmpty ? "" : " \($0.unit)" }
    let kind = habit.measure == nil ? "done" : "amount"
    id = "totals-\(period.rawValue)"
    heading = t.text("totals.\(kind)Per.\(period.rawValue)")
    let values = shown.enumerated().map { index, bucket in
      let value = habit.measure == nil ? Double(bucket.completions) : bucket.amount.doubleValue
      let text = habit.measure == nil ? "\(bucket.completions)" : bucket.amount.description
      let name = Self.name(of: bucket.start, by: period, words: words)
      let label = period == .week && !(shown.count - 1 - index).isMultiple(of: 2) ? "" : Self.label(bucket.start, by: period, words: words)
      let spoken =
        if let unit {
          t.text("totals.spokenAmount", ["name": name, "amount": text + unit])
        } else {
          t.plural("totals.spokenDone", count: bucket.completions, ["name": name])
        }
      return (label: label, value: value, text: text, spoken: spoken)
    }
    chart = StatisticsModel.chart(values)
    let average = habit.measure == nil ? totals.averageCompletions : totals.averageAmount
    help = t.plural(
      "totals.\(kind)Help.\(period.rawValue)", count: shown.count,
      ["total": chart.total + (unit ?? ""), "average": Amount(rounding: average).description + (unit ?? "")])
  }

  static func label(_ start: Day, by period: TotalsPeriod, words: PageDays) -> String {
    switch period {
    case .week: words.shortDayAndMonth(start)
    case .month: words.names.shortMonthName(start.month)
    case .year: "\(start.year)"
    }
  }

  static func name(of start: Day, by period: TotalsPeriod, words: PageDays) -> String {
    switch period {
    case .week: words.t.text("totals.weekOf", ["day": words.name(start, includingYear: true)])
    case .month: words.monthAndYear(start)
    case .year: "\(start.year)"
    }
  }
}
