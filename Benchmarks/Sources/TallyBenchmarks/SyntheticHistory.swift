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

/// A habit created `years` before `today`, done on about 80% of days and skipped on 5%;
/// about `notePercent` of the entries have a short note.
func syntheticHabit(
  index: Int, frequency: Frequency, years: Int, today: Day, notePercent: Int = 0,
  rng: inout SplitMix64
) -> (Habit, [HabitEntry]) {
  let created = today.adding(days: -365 * years + 1)
  let habit = try! Habit(
    id: UUID(), name: "Habit \(index)", createdDay: created, frequency: frequency, sortOrder: index)
  var entries: [HabitEntry] = []
  for day in created...today {
    let roll = Int.random(in: 0..<100, using: &rng)
    let status: EntryStatus
    if roll < 80 {
      status = .done
    } else if roll < 85 {
      status = .skipped
    } else {
      continue
    }
    // Rolled only when notes are asked for, so histories without them stay as they were.
    let note = notePercent > 0 && Int.random(in: 0..<100, using: &rng) < notePercent ? "note \(day)" : nil
    entries.append(HabitEntry(day: day, status: status, note: note))
  }
  return (habit, entries)
}
