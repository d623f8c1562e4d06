import Foundation
import TallyCore
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient
import Testing

/// SPEC 11: setting a day to the value a device already holds is still the user's latest act.
/// It is stamped and sent, so it wins over an earlier change made elsewhere.
@Suite struct RestatedDaySyncTests {
  @Test(arguments: ServerBackend.all) func removingANoteTheDeviceNeverHadWinsOverAnEarlierNote(_ backend: ServerBackend) async throws {
    try await SyncScenarioTests.withReadOnBoth(backend) { server, url, phone, laptop, read in
      let march6 = day("2026-03-06")
      try await phone.store.setDay(march6, of: read.id, to: .done, for: phone.user.id)
      for replica in [phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      // The laptop adds a note and syncs; a minute later the phone, not yet synced, marks the
      // day done without notes: what it held, but the later act.
      try await laptop.store.setDay(march6, of: read.id, to: .done, note: "n20", for: laptop.user.id)
      _ = try await laptop.sync(url, token: server.token)
      phone.clock.advance(60)
      try await phone.store.setDays([march6], of: read.id, to: .done, note: "", for: phone.user.id)
      let sent = try await phone.sync(url, token: server.token)
      #expect(sent.pushed == 1)
      _ = try await laptop.sync(url, token: server.token)
      try await Self.expect([HabitEntry(day: march6, status: .done)], of: read, on: server, phone, laptop)
    }
  }

  @Test(arguments: ServerBackend.all) func markingDoneAgainWinsOverAnEarlierSkip(_ backend: ServerBackend) async throws {
    try await SyncScenarioTests.withReadOnBoth(backend) { server, url, phone, laptop, read in
      let march6 = day("2026-03-06")
      try await phone.store.setDay(march6, of: read.id, to: .done, for: phone.user.id)
      for replica in [phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      try await laptop.store.setDay(march6, of: read.id, to: .skipped, for: laptop.user.id)
      _ = try await laptop.sync(url, token: server.token)
      phone.clock.advance(60)
      try await phone.store.setDay(march6, of: read.id, to: .done, for: phone.user.id)
      for replica in [phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      try await Self.expect([HabitEntry(day: march6, status: .done)], of: read, on: server, phone, laptop)
    }
  }

  /// The web app and the API write to the server's store: the same rule holds there.
  @Test(arguments: ServerBackend.all) func theServerRestatingADayWinsOverAnEarlierOfflineChange(_ backend: ServerBackend) async throws {
    try await SyncScenarioTests.withReadOnBoth(backend) { server, url, phone, laptop, read in
      let march6 = day("2026-03-06")
      try await phone.store.setDay(march6, of: read.id, to: .done, for: phone.user.id)
      for replica in [phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      // Offline, the laptop skips the day; later the web app marks it done, which it was.
      try await laptop.store.setDay(march6, of: read.id, to: .skipped, for: laptop.user.id)
      server.clock.advance(120)
      try await server.store.setDay(march6, of: read.id, to: .done, for: server.user.id)
      for replica in [laptop, phone] { _ = try await replica.sync(url, token: server.token) }
      try await Self.expect([HabitEntry(day: march6, status: .done)], of: read, on: server, phone, laptop)
    }
  }

  @Test(arguments: ServerBackend.all) func clearingAnEmptyDayWinsOverAnEarlierMark(_ backend: ServerBackend) async throws {
    try await SyncScenarioTests.withReadOnBoth(backend) { server, url, phone, laptop, read in
      let march6 = day("2026-03-06")
      try await laptop.store.setDay(march6, of: read.id, to: .done, for: laptop.user.id)
      _ = try await laptop.sync(url, token: server.token)
      phone.clock.advance(60)
      try await phone.store.setDay(march6, of: read.id, to: .nothing, for: phone.user.id)
      for replica in [phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      try await Self.expect([], of: read, on: server, phone, laptop)
    }
  }

  static func expect(
    _ entries: [HabitEntry], of habit: Habit, on server: SyncServer, _ replicas: Replica...,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    #expect(try await server.store.entries(of: habit.id, for: server.user.id) == entries, sourceLocation: sourceLocation)
    for replica in replicas {
      #expect(
        try await replica.store.entries(of: habit.id, for: replica.user.id) == entries, "on \(replica.name)",
        sourceLocation: sourceLocation)
    }
  }
}
