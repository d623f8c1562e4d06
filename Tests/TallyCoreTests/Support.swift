import Foundation
import TallyCore
import Testing

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

/// Every figure of the engine's statistics equals the reference's: counts exactly, rates and
/// progress to 1e-12, the score (a long product) to 1e-9.
func expectSameFigures(
  _ fast: HabitStatistics, _ slow: HabitStatistics, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(fast.currentStreak == slow.currentStreak, sourceLocation: sourceLocation)
  #expect(fast.longestStreak == slow.longestStreak, sourceLocation: sourceLocation)
  #expect(fast.streakUnit == slow.streakUnit, sourceLocation: sourceLocation)
  #expect(abs(fast.completionRate - slow.completionRate) < 1e-12, sourceLocation: sourceLocation)
  #expect(fast.completionsThisWeek == slow.completionsThisWeek, sourceLocation: sourceLocation)
  #expect(abs(fast.weeklyProgress - slow.weeklyProgress) < 1e-12, sourceLocation: sourceLocation)
  #expect(abs(fast.periodProgress - slow.periodProgress) < 1e-12, sourceLocation: sourceLocation)
  #expect(fast.periodAmount == slow.periodAmount, sourceLocation: sourceLocation)
  #expect(fast.periodCompletions == slow.periodCompletions, sourceLocation: sourceLocation)
  #expect(abs(fast.score - slow.score) < 1e-9, sourceLocation: sourceLocation)
}
