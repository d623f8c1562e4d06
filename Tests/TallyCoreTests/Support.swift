import Foundation
import TallyCore

/// `Day("2026-03-08")!`, for readable fixtures.
func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("bad day \(text)") }
  return day
}

func habit(
  _ name: String = "Read", created: String, frequency: Frequency = .daily
) -> Habit {
  try! Habit(id: UUID(), name: name, createdDay: day(created), frequency: frequency)
}

/// Entries from a compact picture: one character a day starting at `from`;
/// `x` done, `s` skipped, `.` nothing.
func entries(from start: String, _ pattern: String) -> [HabitEntry] {
  var result: [HabitEntry] = []
  for (offset, mark) in pattern.enumerated() {
    let status: EntryStatus? = mark == "x" ? .done : mark == "s" ? .skipped : nil
    if let status {
      result.append(HabitEntry(day: day(start).adding(days: offset), status: status))
    }
  }
  return result
}

let specZones = [
  "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kolkata",
].map { TimeZone(identifier: $0)! }
