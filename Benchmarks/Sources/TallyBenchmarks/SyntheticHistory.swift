import Foundation
import TallyCore

/// A small deterministic generator (SplitMix64), so every run measures the same histories.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A habit created `years` before `today`, done on about 80% of days and skipped on 5%.
func syntheticHabit(
  index: Int, frequency: Frequency, years: Int, today: Day, rng: inout SplitMix64
) -> (Habit, [HabitEntry]) {
  let created = today.adding(days: -365 * years + 1)
  let habit = try! Habit(
    id: UUID(), name: "Habit \(index)", createdDay: created, frequency: frequency, sortOrder: index)
  var entries: [HabitEntry] = []
  for day in created...today {
    let roll = Int.random(in: 0..<100, using: &rng)
    if roll < 80 {
      entries.append(HabitEntry(day: day, status: .done))
    } else if roll < 85 {
      entries.append(HabitEntry(day: day, status: .skipped))
    }
  }
  return (habit, entries)
}
