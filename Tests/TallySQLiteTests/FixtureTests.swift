import Foundation
import GRDB
import TallyCore
import TallyStore
import Testing

@testable import TallySQLite

/// Every schema version that ever shipped keeps a small database file, made by this code when
/// that version was the newest, in Fixtures/. Opening a copy with today's program must migrate
/// it and show every row. A fixture is never regenerated once committed: it stands for the
/// files users have.
@Suite struct FixtureTests {
  /// A copy of a fixture in a temporary folder: opening migrates a file, and the committed one
  /// must stay as it was made.
  func copyOfFixture(_ version: String) throws -> String {
    let source = try #require(
      Bundle.module.url(forResource: version, withExtension: "sqlite", subdirectory: "Fixtures"),
      "Fixtures/\(version).sqlite is missing")
    let path = temporaryDatabasePath()
    try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aV1DatabaseOpensWithEveryRow() async throws {
    let path = try copyOfFixture("v1")
    let database = try AppDatabase.open(at: path)
    let applied = try await database.reader.read { db in try Migrations.migrator().appliedMigrations(db) }
    #expect(applied == AppDatabase.schemaVersions)
    try await FixtureV1.expectContents(of: SQLiteStore(database))
  }

  /// A shipped migration must not change: the schema the migrations up to a fixture's version
  /// make today is the one in its file.
  @Test(arguments: ["v1", "v2", "v3", "v5", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17"])
  func shippedMigrationsAreFrozen(_ version: String) async throws {
    let path = try copyOfFixture(version)
    let queue = try DatabaseQueue(path: path)
    let shipped = try await queue.read(Self.schema)
    let today = try DatabaseQueue()
    let count = try #require(Migrations.all.firstIndex { $0.identifier == version }) + 1
    try Migrations.migrator(Array(Migrations.all.prefix(count))).migrate(today)
    #expect(try await today.read(Self.schema) == shipped)
  }

  @Sendable static func schema(_ db: Database) throws -> [String] {
    try String.fetchAll(
      db, sql: "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name")
  }

  /// Writes Fixtures/v1.sqlite. Run only by hand, and only when v1 was the newest schema:
  /// `TALLY_WRITE_FIXTURE=v1 swift test --filter writeV1Fixture`.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TALLY_WRITE_FIXTURE"] == "v1"))
  func writeV1Fixture() async throws {
    let path = temporaryDatabasePath()
    let database = try AppDatabase.open(
      at: path, migrator: Migrations.migrator(Array(Migrations.all.prefix(1))))
    try await FixtureV1.populate(SQLiteStore(database))
    try database.writer.close()
    try await keepAsFixture(path, version: "v1")
  }
}

/// What Fixtures/v1.sqlite holds: a bit of everything schema v1 keeps, for two users.
enum FixtureV1 {
  static let ada = try! User(
    id: UUID(uuidString: "0a000000-0000-4000-8000-000000000001")!, name: "ada",
    settings: UserSettings(
      timeZone: "Europe/Berlin", daySwitchHour: 3, firstWeekday: .monday, locale: "de_DE",
      showDatePickerGrid: false, showGridDates: true))
  static let bob = try! User(
    id: UUID(uuidString: "0b000000-0000-4000-8000-000000000002")!, name: "bob",
    settings: UserSettings(timeZone: "America/New_York"))

  static let read = try! Habit(
    id: UUID(uuidString: "1a000000-0000-4000-8000-000000000001")!, name: "Read", icon: "📚",
    color: HexColor(parsing: "#8B5CF6"), group: "Mind", createdDay: day("2026-01-01"),
    reminder: .single(WallTime(hour: 7, minute: 30)), sortOrder: 0)
  static let run = try! Habit(
    id: UUID(uuidString: "1a000000-0000-4000-8000-000000000002")!, name: "Run",
    icon: "figure.run", color: HexColor(parsing: "#80FF0000"), createdDay: day("2025-12-29"),
    frequency: .weekly(targetPerWeek: 3),
    reminder: .periodic(start: WallTime(hour: 8), end: WallTime(hour: 20), everyHours: 4),
    sortOrder: 1)
  static let old = try! Habit(
    id: UUID(uuidString: "1a000000-0000-4000-8000-000000000003")!, name: "Old habit",
    createdDay: day("2025-01-01"), archived: true, sortOrder: 2)
  static let bobs = try! Habit(
    id: UUID(uuidString: "1b000000-0000-4000-8000-000000000001")!, name: "Read",
    createdDay: day("2026-01-01"))

  static let readEntries = [
    HabitEntry(day: day("2026-01-01"), status: .done),
    HabitEntry(day: day("2026-01-02"), status: .skipped, note: "ill"),
    HabitEntry(day: day("2026-01-03"), status: .done, note: "two chapters"),
  ]
  static let runEntries = [HabitEntry(day: day("2026-01-05"), status: .done)]
  static let oldEntries = [HabitEntry(day: day("2025-01-01"), status: .done)]
  static let bobsEntries = [HabitEntry(day: day("2026-01-01"), status: .done, note: "bob's")]

  static let journal = try! JournalEntry(day: day("2026-01-02"), text: "Slept badly.\n\nBetter tomorrow.")
  static let messages = [
    try! ChatMessage(
      id: UUID(uuidString: "2a000000-0000-4000-8000-000000000001")!, day: day("2026-01-02"),
      role: .user, text: "Why am I tired?", sentAt: instant(ms: 1_767_340_800_250)),
    try! ChatMessage(
      id: UUID(uuidString: "2a000000-0000-4000-8000-000000000002")!, day: day("2026-01-02"),
      role: .assistant, text: "You slept badly.", sentAt: instant(ms: 1_767_340_801_000)),
  ]

  static let severance = try! Show(
    id: UUID(uuidString: "3a000000-0000-4000-8000-000000000001")!, title: "Severance",
    status: .watching,
    providers: [
      "US": [
        Provider(id: 350, name: "Apple TV+", logoURL: URL(string: "https://image.tmdb.org/t/p/w92/apple.jpg")),
        Provider(id: 8, name: "Netflix"),
      ],
      "AU": [Provider(id: 350, name: "Apple TV+")],
    ])
  static let episodes = [
    try! Episode(showID: severance.id, season: 2, number: 1, title: "Hello, Ms. Cobel", airDay: day("2025-01-17")),
    try! Episode(showID: severance.id, season: 2, number: 2, title: "Goodbye, Mrs. Selvig", airDay: day("2025-01-24")),
  ]
  static let prices = [
    try! Price(country: "US", providerID: 350, amount: Decimal(string: "9.99")!, currency: "USD"),
    try! Price(country: "AU", providerID: 350, amount: Decimal(string: "12.99")!, currency: "AUD"),
  ]

  static let token = try! APIToken(
    id: UUID(uuidString: "4a000000-0000-4000-8000-000000000001")!, userID: ada.id,
    tokenHash: String(repeating: "ab", count: 32), name: "backup script",
    createdAt: instant(ms: 1_767_225_600_000), expiresAt: nil)
  static let session = try! BrowserSession(
    id: UUID(uuidString: "5a000000-0000-4000-8000-000000000001")!, userID: ada.id,
    tokenHash: String(repeating: "cd", count: 32), createdAt: instant(ms: 1_767_225_600_000),
    expiresAt: instant(ms: 4_102_444_800_000))
  static let delivery = ReminderOccurrenceKey(
    habitID: read.id, day: day("2026-01-02"), time: try! WallTime(hour: 7, minute: 30))
  static let deliveredAt = instant(ms: 1_767_335_400_000)

  static func populate(_ store: some Store) async throws {
    _ = try await store.createUser(ada)
    _ = try await store.createUser(bob)
    for habit in [read, run, old] { _ = try await store.createHabit(habit, for: ada.id) }
    _ = try await store.createHabit(bobs, for: bob.id)
    for (habit, entries, user) in [
      (read, readEntries, ada), (run, runEntries, ada), (old, oldEntries, ada), (bobs, bobsEntries, bob),
    ] {
      for entry in entries {
        try await store.setDay(
          entry.day, of: habit.id, to: entry.status == .done ? .done : .skipped, note: entry.note,
          for: user.id)
      }
    }
    try await store.setJournalEntry(journal, for: ada.id)
    for message in messages { try await store.addChatMessage(message, for: ada.id) }
    try await store.saveShow(severance, for: ada.id)
    try await store.saveEpisodes(episodes, for: ada.id)
    for price in prices { try await store.setPrice(price, for: ada.id) }
    _ = try await store.createAPIToken(token)
    _ = try await store.createSession(session)
    _ = try await store.recordDelivery(delivery, sentAt: deliveredAt, for: ada.id)
  }

  /// `others`: users a later fixture added beside ada and bob; `tmdbID`: the show's, from v3 on.
  static func expectContents(of store: some Store, others: [User] = [], tmdbID: Int? = nil) async throws {
    let severance = try Show(
      id: severance.id, title: severance.title, status: severance.status, providers: severance.providers,
      tmdbID: tmdbID)
    #expect(try await store.users() == [ada, bob] + others)
    #expect(try await store.habits(for: ada.id, includingArchived: true) == [read, run, old])
    #expect(try await store.habits(for: bob.id, includingArchived: true) == [bobs])
    #expect(try await store.entries(of: read.id, for: ada.id) == readEntries)
    #expect(try await store.entries(of: run.id, for: ada.id) == runEntries)
    #expect(try await store.entries(of: old.id, for: ada.id) == oldEntries)
    #expect(try await store.entries(of: bobs.id, for: bob.id) == bobsEntries)
    let year = day("2025-01-01")...day("2026-12-31")
    #expect(try await store.journalEntries(in: year, for: ada.id) == [journal])
    #expect(try await store.chatMessages(in: year, for: ada.id) == messages)
    #expect(try await store.journalEntries(in: year, for: bob.id).isEmpty)
    #expect(try await store.shows(for: ada.id) == [severance])
    #expect(try await store.episodes(of: severance.id, for: ada.id) == episodes)
    #expect(try await store.priceTable(for: ada.id) == (try PriceTable(prices)))
    #expect(try await store.apiTokens(for: ada.id) == [token])
    #expect(try await store.apiToken(hash: token.tokenHash, at: instant(ms: 1_800_000_000_000)) == token)
    #expect(try await store.session(hash: session.tokenHash, at: instant(ms: 1_800_000_000_000)) == session)
    #expect(try await store.delivery(delivery, for: ada.id) == deliveredAt)
  }
}
