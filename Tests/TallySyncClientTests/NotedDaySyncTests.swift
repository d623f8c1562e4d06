import Foundation
import TallyCore
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient
import Testing

/// A note on a day not done travels through sync to both server stores and other devices; a
/// noted entry that arrives without its note holds nothing and reads as no entry.
@Suite struct NotedDaySyncTests {
  @Test(arguments: ServerBackend.all) func aNotedDayReachesTheOtherDevice(_ backend: ServerBackend) async throws {
    try await SyncScenarioTests.withReadOnPhone(backend) { server, url, phone, laptop, read in
      try await phone.store.setDay(day("2026-03-06"), of: read.id, to: .noted, note: "lost the book", for: phone.user.id)
      try await phone.store.setDay(day("2026-03-07"), of: read.id, to: .done, for: phone.user.id)
      _ = try await phone.sync(url, token: server.token)
      _ = try await laptop.sync(url, token: server.token)
      let expected = [
        HabitEntry(day: day("2026-03-06"), status: .noted, note: "lost the book"),
        HabitEntry(day: day("2026-03-07"), status: .done),
      ]
      #expect(try await laptop.store.entries(of: read.id, for: laptop.user.id) == expected)
      #expect(try await server.store.entries(of: read.id, for: server.user.id) == expected)

      // Cleared on the laptop, it is cleared everywhere.
      try await laptop.store.setDay(day("2026-03-06"), of: read.id, to: .nothing, for: laptop.user.id)
      _ = try await laptop.sync(url, token: server.token)
      _ = try await phone.sync(url, token: server.token)
      #expect(try await phone.store.entries(of: read.id, for: phone.user.id) == [expected[1]])
    }
  }

  @Test func aNotedEntryWithoutItsNoteIsNoEntry() throws {
    let kept = try SyncFields.entry(SyncFields.entry(status: .noted, note: "rain"))
    #expect(kept.status == .noted && kept.note == "rain" && kept.amount == nil)
    for note in [SyncValue.null, .string("   ")] {
      let bare = try SyncFields.entry(["status": .string("noted"), "note": note, "amount": .int(3)])
      #expect(bare.status == nil && bare.note == nil && bare.amount == nil)
    }
    #expect(throws: ValidationError.self) { try SyncFields.entry(["status": .string("maybe")]) }
  }
}
