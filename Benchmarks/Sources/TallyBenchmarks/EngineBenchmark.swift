import Foundation
import TallyCore
import TallyCoreReference

func row(_ label: String, engine: Double, reference: Double, count: Int) {
  let padded = label.padding(toLength: 34, withPad: " ", startingAt: 0)
  print(
    "\(padded) engine \(format(engine / Double(count)))/habit   reference \(format(reference / Double(count)))/habit   reference ÷ engine = \(Int((reference / engine).rounded()))×"
  )
}

/// Keeps results alive so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0.0

func statistics(_ habits: [(Habit, [HabitEntry])], today: Day) {
  for (habit, entries) in habits {
    sink += HabitStatistics(habit: habit, history: HabitHistory(entries), today: today, firstWeekday: .monday).score
  }
}

func referenceStatistics(_ habits: [(Habit, [HabitEntry])], today: Day) {
  for (habit, entries) in habits {
    sink += ReferenceStatistics.statistics(habit: habit, entries: entries, today: today, firstWeekday: .monday).score
  }
}

/// The engine against its reference: statistics over 1,000 habits × 10 years, and the
/// activity grid.
func engineBenchmark() {
  let today = Day("2026-11-21")!
  let years = 10
  let habitCount = 1000
  var rng = SplitMix64(state: 2026)
  let daily = (0..<habitCount).map {
    syntheticHabit(index: $0, frequency: .daily, years: years, today: today, rng: &rng)
  }
  let weekly = (0..<habitCount).map {
    syntheticHabit(index: $0, frequency: .weekly(targetPerWeek: 1 + $0 % 6), years: years, today: today, rng: &rng)
  }
  print("TallyCore statistics: \(years) years of history per habit (~80% done, 5% skipped), today \(today)")
  print("Times include building each habit's HabitHistory from its entries; best of several runs, one core.\n")

  let one = Array(daily.prefix(1))
  row("1 daily habit", engine: best(200) { statistics(one, today: today) }, reference: best(5) { referenceStatistics(one, today: today) }, count: 1)
  let oneWeekly = Array(weekly.prefix(1))
  row("1 weekly habit", engine: best(200) { statistics(oneWeekly, today: today) }, reference: best(3) { referenceStatistics(oneWeekly, today: today) }, count: 1)

  let allDaily = best(10) { statistics(daily, today: today) }
  row("\(habitCount) daily habits", engine: allDaily, reference: best(1) { referenceStatistics(daily, today: today) }, count: habitCount)
  let allWeekly = best(10) { statistics(weekly, today: today) }
  print("\(habitCount) weekly habits".padding(toLength: 34, withPad: " ", startingAt: 0) + " engine \(format(allWeekly / Double(habitCount)))/habit   (reference skipped: ~25 ms a habit)")

  print("\n\(habitCount) daily habits × \(years) years, total: \(format(allDaily)) — target under 100 ms: \(allDaily < 0.1 ? "met" : "MISSED") (\(String(format: "%.1f", 0.1 / allDaily))× headroom)")

  let histories = daily.map { HabitHistory($0.1) }
  let activity = best(10) {
    let grid = ActivityGrid(
      habits: zip(daily, histories).map { ActivityGrid.Input(habit: $0.0.0, history: $0.1) },
      today: today, firstWeekday: .monday, weekCount: 53)
    sink += Double(grid.weeks.count)
  }
  print("activity grid, 53 weeks × \(habitCount) habits: \(format(activity))")

  measurableBenchmark(yesNo: daily, today: today, years: years)

  if sink == .infinity { print(sink) }
}
