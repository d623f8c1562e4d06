import Foundation
import Synchronization
import TallyCore
import TallyPostgres
import TallyPostgresTesting
import TallySQLite
import TallyStore
import TallyTestFiles
import TallyTestWaiting
import Testing

/// Tokens, sessions and users are kept in memory (``SignInCache``), so a request finds its user
/// without a query; none of them may outlive a change made anywhere.
@Suite struct SignInCacheTests {
  /// Two stores on one database: two processes on one SQLite file, two instances on one
  /// PostgreSQL schema.
  struct Pair: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () async throws -> (any Store, any Store)
    var testDescription: String { name }

    static let all: [Pair] =
      [
        Pair(name: "SQLite file") {
          let path = TestFiles.database("sign-ins")
          return (SQLiteStore(try AppDatabase.open(at: path)), SQLiteStore(try AppDatabase.open(at: path)))
        }
      ]
      + (PostgresTesting.url == nil
        ? []
        : [
          Pair(name: "PostgreSQL") {
            let location = try PostgresTesting.freshLocation()
            let (first, second) = (try await PostgresTesting.open(location), try await PostgresTesting.open(location))
            return (PostgresStore(first), PostgresStore(second))
          }
        ])
  }

  static let now = instant("2026-03-08T12:00:00Z")

  /// What the second store answers, once it has had a moment to hear of a change: SQLite's
  /// other process is seen at the next lookup, PostgreSQL's other instance as soon as its
  /// announcement arrives, in milliseconds.
  func eventually<T: Equatable & Sendable>(_ expected: T, _ read: () async throws -> T) async throws -> T {
    var value = try await read()
    do {
      try await TallyTestWaiting.eventually(within: .seconds(2), every: .milliseconds(10)) {
        value = try await read()
        return value == expected
      }
    } catch is StillNotSo {}
    return value
  }

  @Test(.timeLimit(.minutes(1)), arguments: Pair.all)
  func aTokenSessionOrSettingsChangedElsewhereIsNotKept(_ pair: Pair) async throws {
    let (writer, reader) = try await pair.make()
    let ada = try await makeUser(writer)
    let token = try await writer.createAPIToken(
      APIToken(id: UUID(), userID: ada.id, tokenHash: hashA, name: "phone", createdAt: Self.now))
    let session = try await writer.createSession(
      BrowserSession(
        id: UUID(), userID: ada.id, tokenHash: hashB, createdAt: Self.now,
        expiresAt: Self.now.addingTimeInterval(86_400)))
    // Read twice, so each is kept if it ever will be.
    for _ in 0..<2 {
      #expect(try await reader.apiToken(hash: hashA, at: Self.now) == token)
      #expect(try await reader.session(hash: hashB, at: Self.now) == session)
      #expect(try await reader.user(id: ada.id) == ada)
    }

    try await writer.deleteAPIToken(id: token.id, for: ada.id)
    #expect(try await eventually(nil) { try await reader.apiToken(hash: hashA, at: Self.now) } == nil)
    try await writer.deleteSession(id: session.id, for: ada.id)
    #expect(try await eventually(nil) { try await reader.session(hash: hashB, at: Self.now) } == nil)
    let kolkata = UserSettings(timeZone: "Asia/Kolkata")
    _ = try await writer.updateSettings(kolkata, for: ada.id)
    #expect(try await eventually(kolkata) { try await reader.user(id: ada.id).settings } == kolkata)
  }

  @Test(arguments: StoreFactory.all)
  func changesThroughTheSameStoreAreSeenAtOnce(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let session = try await store.createSession(
      BrowserSession(
        id: UUID(), userID: ada.id, tokenHash: hashB, createdAt: Self.now,
        expiresAt: Self.now.addingTimeInterval(86_400)))
    #expect(try await store.session(hash: hashB, at: Self.now) == session)
    #expect(try await store.user(id: ada.id) == ada)
    try await store.deleteSession(id: session.id, for: ada.id)
    #expect(try await store.session(hash: hashB, at: Self.now) == nil)
    let kolkata = UserSettings(timeZone: "Asia/Kolkata")
    _ = try await store.updateSettings(kolkata, for: ada.id)
    #expect(try await store.user(id: ada.id).settings == kolkata)
    // A kept session still expires on time.
    let brief = try await store.createSession(
      BrowserSession(
        id: UUID(), userID: ada.id, tokenHash: hashC, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(60)))
    #expect(try await store.session(hash: hashC, at: Self.now) == brief)
    #expect(try await store.session(hash: hashC, at: Self.now.addingTimeInterval(60)) == nil)
  }

  @Test func aValueReadWhileEverythingWasForgottenIsNotKept() async throws {
    let cache = SignInCache()
    let reads = Mutex(0)
    let key = SignInCache.Key.user(UUID())
    let stale = try await cache.value(key, orRead: {
      reads.withLock { $0 += 1 }
      cache.forgetAll()  // a commit landed while this read ran
      return "before"
    })
    #expect(stale == "before")
    #expect(try await cache.value(key, orRead: { reads.withLock { $0 += 1 }; return "after" }) == "after")
    #expect(try await cache.value(key, orRead: { reads.withLock { $0 += 1 }; return "never" }) == "after")
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func nothingIsKeptWhenNotFoundOrWhileNotTracking() async throws {
    let cache = SignInCache()
    let finds = Mutex(0)
    let find: () async throws -> String? = { finds.withLock { $0 += 1 }; return nil }
    for _ in 0..<3 { #expect(try await cache.value(.token(hash: hashA), orFind: find) == nil) }
    #expect(finds.withLock { $0 } == 3)

    cache.forgetAll(tracking: false)
    let reads = Mutex(0)
    for _ in 0..<2 {
      _ = try await cache.value(.session(hash: hashB), orRead: { reads.withLock { $0 += 1 }; return "s" })
    }
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func pastItsCapacityEverythingIsForgotten() async throws {
    let cache = SignInCache(capacity: 2)
    let (a, b, c) = (UUID(), UUID(), UUID())
    for user in [a, b, c] { _ = try await cache.value(.user(user), orRead: { user }) }
    let reads = Mutex(0)
    let again: @Sendable (UUID) async throws -> UUID = { user in
      try await cache.value(.user(user), orRead: { reads.withLock { $0 += 1 }; return user })
    }
    #expect(try await again(c) == c)
    #expect(reads.withLock { $0 } == 0, "the newest is kept")
    #expect(try await again(a) == a)
    #expect(reads.withLock { $0 } == 1, "the third value forgot the first two")
  }
}
