import Foundation
import TallyAccounts
import TallyCore
import TallyHTTP
import TallySQLite
import TallyServer
import TallyStore
import TallySync
import TallySyncClient
import Testing

/// A push that breaks a rule is refused whole with a sentence naming the fault, and the
/// account is exactly as before.
@Suite struct SyncRefusalTests {
  static let device = UUID(uuidString: "0d000000-0000-4000-8000-000000000001")!

  static func stamp(_ date: Date, device: UUID = device) -> HybridStamp {
    HybridStamp(milliseconds: Int64(date.timeIntervalSince1970 * 1000), counter: 0, device: device)
  }

  /// Pushes `changes` (after a valid one, so "nothing applied" is visible) and returns the
  /// refusal, checking the account did not change.
  static func refusal(_ server: SyncServer, _ url: String, _ changes: [SyncChange]) async throws -> SyncTransportError? {
    let before = try await Contents.of(server.store, server.user.id)
    let valid = SyncChange(
      kind: .journal, id: "2026-03-08", stamp: stamp(startOfTests), fields: ["text": .string("Kept out")])
    do {
      _ = try await HTTPSyncTransport(baseURL: url, token: server.token)
        .push(SyncPushRequest(device: device, changes: [valid] + changes))
      Issue.record("the push was accepted")
      return nil
    } catch let error as SyncTransportError {
      #expect(try await Contents.of(server.store, server.user.id) == before)
      return error
    }
  }

  @Test(arguments: ServerBackend.all) func anotherAccountsHabitCannotBeWrittenOrTaken(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    let other = try await server.services.accounts.addUser(
      name: "bob", password: "correct horse", settings: UserSettings(timeZone: "UTC"), at: startOfTests)
    let theirs = try await server.store.createHabit(
      Habit(id: UUID(), name: "Secret", createdDay: day("2026-03-01")), for: other.id)
    try await server.running { url in
      let entry = SyncChange(
        kind: .entry, id: SyncID.entry(theirs.id, day("2026-03-07")), stamp: Self.stamp(startOfTests),
        fields: SyncFields.entry(status: .done, note: nil))
      let refused = try await Self.refusal(server, url, [entry])
      #expect(refused?.status == 422)
      #expect(refused?.message.contains("this account has no habit") == true)
      let taken = SyncChange(
        kind: .habit, id: theirs.id.storeText, stamp: Self.stamp(startOfTests),
        fields: try SyncFields.encode(Habit(id: theirs.id, name: "Mine", createdDay: day("2026-03-01")), kind: .habit))
      let second = try await Self.refusal(server, url, [taken])
      #expect(second?.status == 422)
      #expect(second?.message.contains("cannot be used") == true)
      #expect(second?.message.contains("Secret") == false)
      #expect(try await server.store.habit(id: theirs.id, for: other.id).name == "Secret")
    }
  }

  /// The server's clock reads 13:00 on 8 March in Berlin; a device's clock may be 48 hours
  /// ahead (its stamps are still taken), so 10 March can be its today, and 11 March cannot.
  @Test(arguments: ServerBackend.all) func aDayPastTheClockAllowanceIsRefused(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    let habit = try await server.store.createHabit(
      Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: server.user.id)
    try await server.running { url in
      let tooLate = SyncChange(
        kind: .entry, id: SyncID.entry(habit.id, day("2026-03-11")), stamp: Self.stamp(startOfTests),
        fields: SyncFields.entry(status: .done, note: nil))
      let refused = try await Self.refusal(server, url, [tooLate])
      #expect(refused?.status == 422)
      #expect(refused?.message.contains("2026-03-11 is in the future") == true)
      let latest = SyncChange(
        kind: .entry, id: SyncID.entry(habit.id, day("2026-03-10")), stamp: Self.stamp(startOfTests),
        fields: SyncFields.entry(status: .done, note: nil))
      let taken = try await HTTPSyncTransport(baseURL: url, token: server.token)
        .push(SyncPushRequest(device: Self.device, changes: [latest]))
      #expect(taken.applied == 1, "a device a day fast in a zone already in tomorrow is in 10 March")
      // A day before any Tally keeps would be stored and then missed by every read.
      let beforeAll = SyncChange(
        kind: .entry, id: SyncID.entry(habit.id, day("0000-12-31")), stamp: Self.stamp(startOfTests),
        fields: SyncFields.entry(status: .done, note: nil))
      let ancient = try await Self.refusal(server, url, [beforeAll])
      #expect(ancient?.status == 422)
      #expect(ancient?.message.contains("0000-12-31 is before 0001-01-01") == true)
    }
  }

  @Test(arguments: ServerBackend.all) func aStampYearsAheadIsRefused(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let ahead = SyncChange(
        kind: .journal, id: "2026-03-07", stamp: Self.stamp(startOfTests.addingTimeInterval(3 * 365 * 86_400)),
        fields: ["text": .string("From the future")])
      let refused = try await Self.refusal(server, url, [ahead])
      #expect(refused?.status == 422)
      #expect(refused?.message.contains("ahead of the server's clock") == true)
    }
  }

  @Test(arguments: ServerBackend.all) func aStampOfAnotherDeviceIsRefused(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let foreign = SyncChange(
        kind: .journal, id: "2026-03-07", stamp: Self.stamp(startOfTests, device: UUID()), fields: ["text": .string("x")])
      let refused = try await Self.refusal(server, url, [foreign])
      #expect(refused?.message.contains("not the pushing device") == true)
    }
  }

  @Test(arguments: ServerBackend.all, [
    #"{"device":"0d000000-0000-4000-8000-000000000001","changes":[{"kind":"journal","id":"2026-03-07","stamp":"yesterday","fields":{"text":"x"}}]}"#,
    #"{"device":"0d000000-0000-4000-8000-000000000001","changes":[{"kind":"mood","id":"2026-03-07","stamp":"0001772971200000-00000000-0d000000-0000-4000-8000-000000000001","fields":{}}]}"#,
  ])
  func aMalformedChangeIsRefusedNamingWhere(_ backend: ServerBackend, _ body: String) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let response = try await RawHTTP.post(url + "/api/v1/sync", body: body, token: server.token)
      #expect(response.status == 422)
      #expect(response.body.contains("changes"))
      #expect(try await server.store.journalEntry(on: day("2026-03-07"), for: server.user.id) == nil)
    }
  }

  @Test(arguments: ServerBackend.all) func anUnknownFieldIsRefusedByName(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let odd = SyncChange(
        kind: .journal, id: "2026-03-07", stamp: Self.stamp(startOfTests), fields: ["mood": .string("fine")])
      let refused = try await Self.refusal(server, url, [odd])
      #expect(refused?.message.contains("fields.mood") == true)
    }
  }

  @Test(arguments: ServerBackend.all) func aBatchOverTheLimitIsRefusedWithItsSize(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let many = (0..<1_000).map { index in
        SyncChange(
          kind: .journal, id: day("2026-03-08").adding(days: -index).description,
          stamp: Self.stamp(startOfTests), fields: ["text": .string("day \(index)")])
      }
      let refused = try await Self.refusal(server, url, many)
      #expect(refused?.status == 413)
      #expect(refused?.message.contains("at most 1000 changes") == true)
    }
  }

  @Test(arguments: ServerBackend.all) func aCursorOfAnotherAccountIsRefused(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let device = try await server.store.syncDevice()
      let foreign = SyncCursor(position: 3, user: UUID(), server: device).description
      do {
        _ = try await HTTPSyncTransport(baseURL: url, token: server.token).pull(cursor: foreign, limit: 10)
        Issue.record("the cursor was accepted")
      } catch let error as SyncTransportError {
        #expect(error.status == 422)
        #expect(error.isStaleCursor)
        #expect(error.message.contains("another account"))
      }
    }
  }
}

@Suite struct SyncUnknownFieldTests {
  @Test(arguments: ServerBackend.all) func aPushWithAFieldItDoesNotHaveIsRefused(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let response = try await RawHTTP.post(
        url + "/api/v1/sync",
        body: #"{"changes": [], "device": "e3e70682-c209-4cac-a29f-6fbed82c07cd", "extra": 42}"#, token: server.token)
      #expect(response.status == 422)
      #expect(response.body.contains("extra"))
    }
  }
}
