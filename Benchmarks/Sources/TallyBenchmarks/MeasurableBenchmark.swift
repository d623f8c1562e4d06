import Foundation
import TallyCore
import TallyCoreReference

/// A measurable habit beside `syntheticHabit`: the same days done and skipped, each done day
/// with an amount from 0 to 10 units in thousandths, against a target of 5 a period.
func syntheticMeasurable(
  index: Int, frequency: Frequency, direction: TargetDirection, years: Int, today: Day, rng: inout SplitMix64
) -> (Habit, [HabitEntry]) {
  let (plain, entries) = syntheticHabit(index: index, frequency: frequency, years: years, today: today, rng: &rng)
  var habit = plain
  habit.measure = try! Measure(unit: "km", target: Amount(5), direction: direction)
  let measured = entries.map { entry in
    var entry = entry
    if entry.status == .done { entry.amount = Amount(thousandths: Int64.random(in: 0...10_000, using: &rng)) }
    return entry
  }
  return (habit, measured)
}

/// Statistics of 1,000 measurable habits × 10 years beside 1,000 yes/no habits of the same
/// size, and the reference for one habit of each, in the same run.
func measurableBenchmark(yesNo daily: [(Habit, [HabitEntry])], today: Day, years: Int) {
  var rng = SplitMix64(state: 15)
  let count = daily.count
  let schedules: [Frequency] = [.daily, .weekly(targetPerWeek: 1), .timesInDays(times: 1, days: 10), .monthly(timesPerMonth: 1)]
  let measured = (0..<count).map {
    syntheticMeasurable(
      index: $0, frequency: schedules[$0 % schedules.count], direction: $0 % 3 == 0 ? .atMost : .atLeast,
      years: years, today: today, rng: &rng)
  }
  print("\nMeasurable habits (issue 15): amounts 0–10 km on done days, target 5 a period, a quarter each daily,")
  print("1 a week, 1 in 10 days and 1 a month, a third of them at most; the same days as the yes/no habits.\n")
  let one = Array(measured.prefix(1))
  row("1 measurable daily habit", engine: best(200) { statistics(one, today: today) }, reference: best(5) { referenceStatistics(one, today: today) }, count: 1)
  let yesNo = best(10) { statistics(daily, today: today) }
  let all = best(10) { statistics(measured, today: today) }
  let pad = { (text: String) in text.padding(toLength: 34, withPad: " ", startingAt: 0) }
  print("\(pad("\(count) yes/no daily habits")) engine \(format(yesNo)) total, \(format(yesNo / Double(count)))/habit")
  print("\(pad("\(count) measurable habits")) engine \(format(all)) total, \(format(all / Double(count)))/habit   measurable ÷ yes/no = \(String(format: "%.2f", all / yesNo))×")
  let totals = best(5) {
    for (habit, entries) in measured {
      let history = HabitHistory(entries)
      for period in TotalsPeriod.allCases {
        sink += HabitTotals(habit: habit, history: history, today: today, firstWeekday: .monday, by: period).averageAmount
      }
    }
  }
  print("\(pad("totals per week, month, year")) engine \(format(totals)) for all \(count) measurable habits")
}
