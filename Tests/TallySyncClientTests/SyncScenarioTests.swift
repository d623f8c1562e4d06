import Foundation
import TallyCore
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient
import Testing

/// The documented outcomes of docs/sync.md, each on real files through the real server.
@Suite struct SyncScenarioTests {
  /// A server, a phone and a laptop, and the habit Read made on the phone, not yet synced.
  static func withReadOnPhone(
    _ backend: ServerBackend, _ body: @Sendable (SyncServer, String, Replica, Replica, Habit) async throws -> Void
  ) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let laptop = try await Replica.make("laptop", url: url, token: server.token)
      let read = try await phone.store.createHabit(
        Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: phone.user.id)
      try await body(server, url, phone, laptop, read)
    }
  }

  /// A server, a phone and a laptop that both hold the habit Read, made on the phone.
  static func withReadOnBoth(
    _ backend: ServerBackend, _ body: @Sendable (SyncServer, String, Replica, Replica, Habit) async throws -> Void
  ) async throws {
    try await withReadOnPhone(backend) { server, url, phone, laptop, read in
      _ = try await phone.sync(url, token: server.token)
      _ = try await laptop.sync(url, token: server.token)
      try await body(server, url, phone, laptop, read)
    }
  }

  @Test(arguments: ServerBackend.all) func aHabitMadeOnOneDeviceReachesTheOtherWithItsDays(_ backend: ServerBackend) async throws {
    try await Self.withReadOnPhone(backend) { server, url, phone, laptop, read in
      try await phone.store.setDays([day("2026-03-06"), day("2026-03-07")], of: read.id, to: .done, note: nil, for: phone.user.id)
      let sent = try await phone.sync(url, token: server.token)
      #expect(sent.pushed >= 3)
      _ = try await laptop.sync(url, token: server.token)
      let onLaptop = try await Contents.of(laptop.store, laptop.user.id)
      #expect(onLaptop.habits.map(\.name) == ["Read"])
      #expect(onLaptop.entries[read.id]?.map(\.day) == [day("2026-03-06"), day("2026-03-07")])
      #expect(onLaptop == (try await Contents.of(server.store, server.user.id)))
      // The server's settings won on attaching.
      #expect(onLaptop.settings == server.user.settings)
    }
  }

  @Test(arguments: ServerBackend.all) func theLaterMarkOfOneDayWinsEverywhere(_ backend: ServerBackend) async throws {
    try await Self.withReadOnBoth(backend) { server, url, phone, laptop, read in
      // Offline: the phone marks the day done, a minute later the laptop skips it.
      try await phone.store.setDay(day("2026-03-07"), of: read.id, to: .done, note: "on the train", for: phone.user.id)
      laptop.clock.advance(60)
      try await laptop.store.setDay(day("2026-03-07"), of: read.id, to: .skipped, note: nil, for: laptop.user.id)
      // The later one syncs first; the earlier one must not win by arriving last.
      for replica in [laptop, phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      let expected = [HabitEntry(day: day("2026-03-07"), status: .skipped)]
      for (store, user) in [(phone.store, phone.user.id), (laptop.store, laptop.user.id), (server.store, server.user.id)] {
        #expect(try await store.entries(of: read.id, for: user) == expected)
      }
    }
  }

  @Test(arguments: ServerBackend.all) func aDeletedHabitStaysDeletedAndTheEditsMadeToItAreReported(_ backend: ServerBackend) async throws {
    try await Self.withReadOnBoth(backend) { server, url, phone, laptop, read in
      try await phone.store.deleteHabit(id: read.id, for: phone.user.id)
      // Later, offline, the laptop renames it and marks a day.
      laptop.clock.advance(3_600)
      var renamed = read
      renamed.name = "Read more"
      _ = try await laptop.store.updateHabit(renamed, for: laptop.user.id)
      try await laptop.store.setDay(day("2026-03-08"), of: read.id, to: .done, for: laptop.user.id)
      _ = try await phone.sync(url, token: server.token)
      let report = try await laptop.sync(url, token: server.token)
      #expect(Set(report.dropped.map(\.kind)) == [.habit, .entry])
      for (store, user) in [(phone.store, phone.user.id), (laptop.store, laptop.user.id), (server.store, server.user.id)] {
        #expect(try await store.habits(for: user, includingArchived: true).isEmpty)
      }
    }
  }

  @Test(arguments: ServerBackend.all) func twoHabitsGivenOneNameOfflineBothSurviveAndTheLaterIsRenamed(_ backend: ServerBackend) async throws {
    try await Self.withReadOnPhone(backend) { server, url, phone, laptop, first in
      try await phone.store.setDay(day("2026-03-05"), of: first.id, to: .done, for: phone.user.id)
      laptop.clock.advance(5)
      let second = try await laptop.store.createHabit(
        Habit(id: UUID(), name: "Read", createdDay: day("2026-03-02")), for: laptop.user.id)
      try await laptop.store.setDay(day("2026-03-06"), of: second.id, to: .done, for: laptop.user.id)
      // The later habit reaches the server first; it is still the one renamed.
      let laptopReport = try await laptop.sync(url, token: server.token)
      let phoneReport = try await phone.sync(url, token: server.token)
      _ = try await laptop.sync(url, token: server.token)
      #expect((laptopReport.renamed + phoneReport.renamed).map(\.to).contains("Read (2)"))
      let onServer = try await Contents.of(server.store, server.user.id)
      #expect(Dictionary(uniqueKeysWithValues: onServer.habits.map { ($0.id, $0.name) }) == [first.id: "Read", second.id: "Read (2)"])
      #expect(onServer.entries[first.id]?.map(\.day) == [day("2026-03-05")])
      #expect(onServer.entries[second.id]?.map(\.day) == [day("2026-03-06")])
      #expect(try await Contents.of(phone.store, phone.user.id) == onServer)
      #expect(try await Contents.of(laptop.store, laptop.user.id) == onServer)
    }
  }

  @Test(arguments: ServerBackend.all) func aReplacedJournalTextIsKeptAsARevision(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let laptop = try await Replica.make("laptop", url: url, token: server.token)
      try await phone.store.setJournalEntry(JournalEntry(day: day("2026-03-08"), text: "Written on the phone"), for: phone.user.id)
      laptop.clock.advance(30)
      try await laptop.store.setJournalEntry(JournalEntry(day: day("2026-03-08"), text: "Written on the laptop"), for: laptop.user.id)
      _ = try await laptop.sync(url, token: server.token)
      _ = try await phone.sync(url, token: server.token)
      for (store, user) in [(phone.store, phone.user.id), (laptop.store, laptop.user.id), (server.store, server.user.id)] {
        #expect(try await store.journalEntry(on: day("2026-03-08"), for: user)?.text == "Written on the laptop")
      }
      let revisions = try await server.store.journalRevisions(on: day("2026-03-08"), for: server.user.id)
      #expect(revisions.map(\.text) == ["Written on the phone"])
    }
  }

  @Test(arguments: ServerBackend.all) func whatTheWebAppWritesReachesTheDevices(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let habit = try await server.store.createHabit(
        Habit(id: UUID(), name: "Walk", createdDay: day("2026-03-01")), for: server.user.id)
      try await server.store.setDay(day("2026-03-08"), of: habit.id, to: .done, for: server.user.id)
      try await server.store.addChatMessage(
        ChatMessage(id: UUID(), day: day("2026-03-08"), role: .user, text: "Hello", sentAt: startOfTests),
        for: server.user.id)
      _ = try await phone.sync(url, token: server.token)
      #expect(try await Contents.of(phone.store, phone.user.id) == (try await Contents.of(server.store, server.user.id)))
      // An empty sync moves nothing.
      let again = try await phone.sync(url, token: server.token)
      #expect(again.pushed == 0 && again.appliedHere == 0)
    }
  }

  @Test(arguments: ServerBackend.all) func aPushWhoseAnswerWasLostChangesNothingWhenSentAgain(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let habit = try await phone.store.createHabit(
        Habit(id: UUID(), name: "Walk", createdDay: day("2026-03-01")), for: phone.user.id)
      try await phone.store.setDay(day("2026-03-08"), of: habit.id, to: .done, for: phone.user.id)
      let http = HTTPSyncTransport(baseURL: url, token: server.token)
      // The server commits the push, then the connection drops before the answer arrives.
      let lossy = LosingAnswers(inner: http, losePushes: 1)
      await #expect(throws: SyncTransportError.self) {
        var client = phone.client(lossy)
        client.attempts = 1
        try await client.sync()
      }
      #expect(try await phone.store.outboxCount(for: phone.user.id) > 0)
      let retried = try await phone.sync(url, token: server.token)
      #expect(retried.pushed > 0 && retried.appliedOnServer == 0)
      #expect(try await phone.store.outboxCount(for: phone.user.id) == 0)
      #expect(try await Contents.of(phone.store, phone.user.id) == (try await Contents.of(server.store, server.user.id)))
    }
  }
}

/// Passes exchanges to `inner`, but throws away the answer of the first pushes, as a dropped
/// connection would after the server committed.
final class LosingAnswers: SyncTransport, @unchecked Sendable {
  let inner: any SyncTransport
  private let lock = NSLock()
  private var losePushes: Int

  init(inner: any SyncTransport, losePushes: Int) {
    self.inner = inner
    self.losePushes = losePushes
  }

  func pull(cursor: String?, limit: Int) async throws -> SyncPullResponse {
    try await inner.pull(cursor: cursor, limit: limit)
  }

  func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
    let answer = try await inner.push(request)
    let lose = lock.withLock {
      defer { losePushes -= 1 }
      return losePushes > 0
    }
    if lose { throw SyncTransportError(status: nil, message: "connection reset", retryable: true) }
    return answer
  }
}

@Suite struct SyncPriceTests {
  @Test(arguments: ServerBackend.all) func aPriceSetOnTheServerReachesADevice(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      try await server.store.setPrice(
        Price(country: "US", providerID: 8, amount: Decimal(27), currency: "USD"), for: server.user.id)
      _ = try await phone.sync(url, token: server.token)
      let prices = try await phone.store.priceTable(for: phone.user.id).prices
      #expect(prices.contains(try Price(country: "US", providerID: 8, amount: 27, currency: "USD")))
    }
  }
}
