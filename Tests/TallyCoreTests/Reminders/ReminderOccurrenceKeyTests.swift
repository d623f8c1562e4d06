import Foundation
import TallyCore
import Testing

@Suite struct ReminderOccurrenceKeyTests {
  typealias F = ReminderFixtures
  let habitID = UUID(uuidString: "6F1C2A3B-4D5E-4F60-8A9B-0C1D2E3F4A5B")!

  @Test func hasAStableTextForm() throws {
    let key = ReminderOccurrenceKey(habitID: habitID, day: try F.day("2026-03-08"), time: try F.time("08:05"))
    #expect(key.description == "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2026-03-08/08:05")
    #expect(ReminderOccurrenceKey(key.description) == key)
    #expect(ReminderOccurrenceKey("6F1C2A3B-4D5E-4F60-8A9B-0C1D2E3F4A5B/2026-03-08/08:05") == key)
  }

  @Test func rejectsMalformedText() {
    for bad in [
      "", "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2026-03-08", "not-a-uuid/2026-03-08/08:00",
      "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2026-02-30/08:00",
      "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2026-03-08/8:00",
      "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2026-03-08/24:00",
      "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2026-03-08/08:00/x",
    ] {
      #expect(ReminderOccurrenceKey(bad) == nil, "\(bad)")
    }
  }

  @Test func codesAsItsText() throws {
    let key = ReminderOccurrenceKey(habitID: habitID, day: try F.day("2024-02-29"), time: try F.time("22:00"))
    let data = try JSONEncoder().encode([key])
    #expect(String(decoding: data, as: UTF8.self) == #"["6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b\/2024-02-29\/22:00"]"#)
    #expect(try JSONDecoder().decode([ReminderOccurrenceKey].self, from: data) == [key])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([ReminderOccurrenceKey].self, from: Data(#"["nope"]"#.utf8))
    }
  }

  /// The key names what the user set, so moving to another zone does not make a delivered
  /// reminder look new.
  @Test func ignoresTheInstantAndTheZone() throws {
    let habit = try F.habit(reminder: .single(try F.time("08:00")), id: habitID)
    let now = try F.instant("2026-06-01T00:00:00Z")
    let berlin = try ReminderSchedule(calendar: F.calendar("Europe/Berlin"))
      .occurrences(of: habit, entries: [], after: now, days: 2)
    let kolkata = try ReminderSchedule(calendar: F.calendar("Asia/Kolkata"))
      .occurrences(of: habit, entries: [], after: now, days: 2)
    #expect(berlin.map(\.key) == kolkata.map(\.key))
    #expect(berlin.map(\.instant) != kolkata.map(\.instant))
    #expect(Set(berlin.map(\.key)).count == berlin.count)
  }

  @Test func differsByHabitDayAndTime() throws {
    let day = try F.day("2026-03-08")
    let time = try F.time("08:00")
    let key = ReminderOccurrenceKey(habitID: habitID, day: day, time: time)
    #expect(key != ReminderOccurrenceKey(habitID: UUID(), day: day, time: time))
    #expect(key != ReminderOccurrenceKey(habitID: habitID, day: day.adding(days: 1), time: time))
    #expect(key != ReminderOccurrenceKey(habitID: habitID, day: day, time: try F.time("08:01")))
  }
}
