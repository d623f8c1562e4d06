import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Synchronization
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyPostgresTesting
import TallySQLite
import TallyServer
import TallyStore
import TallySync
import TallySyncClient
import TallyTestFiles
import Testing

/// A clock a test moves by hand.
final class TestClock: Sendable {
  private let now: Mutex<Date>

  init(_ start: Date) { now = Mutex(start) }

  func read() -> Date { now.withLock { $0 } }

  func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }

  func set(_ date: Date) { now.withLock { $0 = date } }
}

/// 2026-03-08 12:00 UTC.
let startOfTests = Date(timeIntervalSince1970: 1_772_971_200)

func temporaryDatabase(_ name: String) -> String {
  TestFiles.folder("sync").appendingPathComponent("\(name).sqlite").path
}

/// Which store the server runs on: every sync test runs on SQLite, and on PostgreSQL too when
/// `TALLY_TEST_POSTGRES_URL` names one.
enum ServerBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case sqlite, postgres

  static let all: [ServerBackend] = PostgresTesting.url == nil ? [.sqlite] : [.sqlite, .postgres]

  var testDescription: String { rawValue }

  func store(clock: TestClock) async throws -> any SyncingStore {
    switch self {
    case .sqlite: SQLiteStore(try AppDatabase.open(at: temporaryDatabase("server")), clock: { clock.read() })
    case .postgres: try await PostgresTesting.store(clock: { clock.read() })
    }
  }
}

/// The server's side: its database, its clock and an account with an API token.
struct SyncServer: Sendable {
  let store: any SyncingStore
  let services: AppServices
  let clock: TestClock
  let user: User
  let token: String

  static func make(
    _ backend: ServerBackend, timeZone: String = "Europe/Berlin", configuration: ServerConfiguration = ServerConfiguration()
  ) async throws -> SyncServer {
    let clock = TestClock(startOfTests)
    let store = try await backend.store(clock: clock)
    let accounts = AccountService(store: store, hasher: PasswordHasher(cost: 4))
    let services = AppServices(
      store: store, configuration: configuration, accounts: accounts, clock: { clock.read() })
    let user = try await accounts.addUser(
      name: "ada", password: "correct horse", settings: UserSettings(timeZone: timeZone), at: clock.read())
    let token = try await accounts.createAPIToken(name: "sync", for: user.id, at: clock.read())
    return SyncServer(store: store, services: services, clock: clock, user: user, token: token.secret.secret)
  }

  /// Runs `body` with the server listening on a free loopback port; `body` gets its URL.
  /// Live streams get their heartbeats and catch-ups as under `tally serve`.
  func running<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
    var app = Application(
      router: buildRouter(services), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    app.addServices(LiveTicks(store: store, settings: services.configuration.live, logger: Logger(label: "live")))
    return try await app.test(.live) { client in
      try await body("http://127.0.0.1:\(client.port!)")
    }
  }
}

/// A device: its own database file and clock, attached to the server's account.
struct Replica: Sendable {
  let name: String
  let store: SQLiteStore
  let clock: TestClock
  let user: User

  static func make(_ name: String, url: String, token: String, timeZone: String = "Europe/Berlin", skew: TimeInterval = 0)
    async throws -> Replica
  {
    let clock = TestClock(startOfTests.addingTimeInterval(skew))
    let store = SQLiteStore(try AppDatabase.open(at: temporaryDatabase(name)), clock: { clock.read() })
    let user = try await store.createUser(User(id: UUID(), name: name, settings: UserSettings(timeZone: timeZone)))
    _ = try await store.attachRemote(SyncRemote(url: url, token: token), for: user.id)
    return Replica(name: name, store: store, clock: clock, user: user)
  }

  func client(_ transport: any SyncTransport) -> SyncClient {
    var client = SyncClient(store: store, user: user.id, transport: transport)
    client.sleep = { _ in }
    client.clock = { clock.read() }
    return client
  }

  func sync(_ url: String, token: String) async throws -> SyncSummary {
    try await client(HTTPSyncTransport(baseURL: url, token: token)).sync()
  }
}

/// Everything of a user that sync carries, read through the store, ids kept.
struct Contents: Equatable, CustomStringConvertible {
  var settings: UserSettings
  var habits: [Habit]
  var entries: [UUID: [HabitEntry]]
  var journal: [JournalEntry]
  var chat: [ChatMessage]
  var shows: [Show]
  var episodes: [Episode]
  var prices: [Price]
  var pauses: [Pause]

  static func of(_ store: any Store, _ user: UUID) async throws -> Contents {
    let snapshot = try await store.snapshot(of: user)
    return Contents(
      settings: snapshot.settings,
      habits: snapshot.habits.map(\.habit),
      entries: Dictionary(uniqueKeysWithValues: snapshot.habits.map { ($0.habit.id, $0.entries) }),
      journal: snapshot.journal, chat: snapshot.chat, shows: snapshot.shows,
      episodes: snapshot.episodes.sorted { ($0.showID.uuidString, $0.season, $0.number) < ($1.showID.uuidString, $1.season, $1.number) },
      prices: snapshot.prices.sorted { ($0.country, $0.providerID) < ($1.country, $1.providerID) },
      pauses: snapshot.pauses)
  }

  var description: String {
    "habits \(habits.map(\.name)), entries \(entries.values.map(\.count).reduce(0, +)), journal \(journal.count), chat \(chat.count), shows \(shows.count)"
  }

  /// What differs from `other`, part by part, for a failure message: the whole contents of
  /// two replicas are too long to compare by eye.
  func differences(from other: Contents) -> String {
    func only<T: Equatable>(_ mine: [T], _ theirs: [T]) -> String {
      "only here \(mine.filter { !theirs.contains($0) }), only there \(theirs.filter { !mine.contains($0) })"
    }
    var parts: [String] = []
    if settings != other.settings { parts.append("settings \(settings) against \(other.settings)") }
    if habits != other.habits { parts.append("habits: \(only(habits, other.habits))") }
    for habit in Set(entries.keys).union(other.entries.keys) where entries[habit] != other.entries[habit] {
      parts.append("days of \(habit): \(only(entries[habit] ?? [], other.entries[habit] ?? []))")
    }
    if journal != other.journal { parts.append("journal: \(only(journal, other.journal))") }
    if chat != other.chat { parts.append("chat: \(only(chat, other.chat))") }
    if shows != other.shows || episodes != other.episodes { parts.append("shows or episodes differ") }
    if prices != other.prices { parts.append("prices: \(only(prices, other.prices))") }
    if pauses != other.pauses { parts.append("pauses: \(only(pauses, other.pauses))") }
    return parts.joined(separator: "; ")
  }
}

func day(_ text: String) -> Day { Day(text)! }

/// A request as any client could send it, bypassing the typed transport.
enum RawHTTP {
  static func post(_ url: String, body: String, token: String) async throws -> (status: Int, body: String) {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), String(buffer: bytes))
  }
}
