import Foundation
import TallyCore
import TallyCoreReference

/// The best of `repetitions` timings of `body`, in seconds: the least disturbed run.
func best(_ repetitions: Int, _ body: () -> Void) -> Double {
  var fastest = Double.infinity
  for _ in 0..<repetitions {
    let elapsed = ContinuousClock().measure(body)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    fastest = min(fastest, seconds)
  }
  return fastest
}

func format(_ seconds: Double) -> String {
  switch seconds {
  case ..<1e-3: String(format: "%8.2f µs", seconds * 1e6)
  case ..<1: String(format: "%8.2f ms", seconds * 1e3)
  default: String(format: "%8.2f s ", seconds)
  }
}

/// Keeps results alive so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0.0

let today = Day("2026-11-21")!
let years = 10
let habitCount = 1000
var rng = SplitMix64(state: 2026)
let habits = (0..<habitCount).map { syntheticHabit(index: $0, years: years, today: today, rng: &rng) }
let histories = habits.map { HabitHistory($0.1) }
let entryCount = habits.reduce(0) { $0 + $1.1.count }
print("TallyCore statistics benchmark: \(habitCount) habits × \(years) years, \(entryCount) entries, today \(today)")
print("(best of several runs, one core, this build's configuration)\n")

// One daily habit.
let (oneHabit, oneEntries) = habits[0]
let oneHistory = histories[0]
let fastOne = best(200) {
  sink += HabitStatistics(habit: oneHabit, history: oneHistory, today: today, firstWeekday: .monday).score
}
let fastOneWithHistory = best(200) {
  sink += HabitStatistics(habit: oneHabit, history: HabitHistory(oneEntries), today: today, firstWeekday: .monday).score
}
let slowOne = best(3) {
  sink += ReferenceStatistics.statistics(habit: oneHabit, entries: oneEntries, today: today, firstWeekday: .monday).score
}
print("1 daily habit, statistics only          \(format(fastOne))")
print("1 daily habit, history + statistics     \(format(fastOneWithHistory))")
print("1 daily habit, slow reference           \(format(slowOne))   ratio reference/engine: \(Int(slowOne / fastOneWithHistory))×")

// One weekly habit (its score has a sliding window).
let (weeklyHabit, weeklyEntries) = habits[2]
let fastWeekly = best(200) {
  sink += HabitStatistics(habit: weeklyHabit, history: HabitHistory(weeklyEntries), today: today, firstWeekday: .monday).score
}
let slowWeekly = best(2) {
  sink += ReferenceStatistics.statistics(habit: weeklyHabit, entries: weeklyEntries, today: today, firstWeekday: .monday).score
}
print("1 weekly habit, history + statistics    \(format(fastWeekly))")
print("1 weekly habit, slow reference          \(format(slowWeekly))   ratio reference/engine: \(Int(slowWeekly / fastWeekly))×")

// All habits.
let fastAll = best(10) {
  for (habit, entries) in habits {
    sink += HabitStatistics(habit: habit, history: HabitHistory(entries), today: today, firstWeekday: .monday).score
  }
}
print("\n\(habitCount) habits, history + statistics   \(format(fastAll)) total, \(format(fastAll / Double(habitCount))) per habit")
let target = 0.100
print("target: \(habitCount) habits × \(years) years under 100 ms → \(fastAll < target ? "met" : "MISSED") (\(String(format: "%.1f", target / fastAll))× headroom)")

// The grids a statistics page draws for all habits: a year of weeks.
let activity = best(10) {
  let grid = ActivityGrid(
    habits: zip(habits, histories).map { ActivityGrid.Input(habit: $0.0.0, history: $0.1) },
    today: today, firstWeekday: .monday, weekCount: 53)
  sink += Double(grid.weeks.count)
}
print("activity grid, 53 weeks × \(habitCount) habits \(format(activity))")

if sink == .infinity { print(sink) }
