import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync
import Testing

@testable import TallySQLite

/// The v2, v3, v5, v10, v11, v12 and v13 fixtures, so every migration path from a shipped version is opened.
/// v2 and v3 were made after their time, from the v1 fixture migrated that far and rows that
/// version adds written in SQL (the store's code today writes v5's columns); v5, v10, v11, v12 and v13 are
/// written by the store while each is the newest schema. Like v1, each is committed once and never remade.
@Suite struct LaterFixtureTests {
  static let fixtures = FixtureTests()

  @Test func aV2DatabaseOpensWithEveryRow() async throws {
    let store = try open("v2")
    try await FixtureV1.expectContents(of: store)
    #expect(try await store.ownerID() == FixtureV1.ada.id)
  }

  @Test func aV3DatabaseOpensWithEveryRowAndItsClashingNamesNumbered() async throws {
    let store = try open("v3")
    try await FixtureV1.expectContents(of: store, others: [FixtureV3.cy], tmdbID: FixtureV3.tmdbID)
    #expect(try await store.ownerID() == FixtureV1.ada.id)
    // v5: every row kept; in list order the first keeps its name, later ones get a number.
    let names = try await store.habits(for: FixtureV3.cy.id, includingArchived: true).map(\.name)
    #expect(names == ["Read", "read (2)", "READ (3)", "Read (2) (2)"])
    #expect(try await store.entries(of: FixtureV3.habitIDs[2], for: FixtureV3.cy.id).count == 1)
  }

  @Test func aV5DatabaseOpensWithEveryRow() async throws {
    let store = try open("v5")
    try await FixtureV1.expectContents(of: store)
  }

  /// v10 keeps sign-in attempts: the one in the file still counts.
  @Test func aV10DatabaseOpensWithEveryRowAndItsSignInAttempt() async throws {
    let store = try open("v10")
    try await FixtureV1.expectContents(of: store)
    let again = try await store.claimSignInAttempt(
      FixtureV10.key, at: FixtureV10.attemptedAt.addingTimeInterval(60), limit: 1, window: 900)
    #expect(again == .refused(until: FixtureV10.attemptedAt.addingTimeInterval(900)))
  }

  /// v11 keeps each marked day's feed place in its row: the file's days still reach a device.
  @Test func aV11DatabaseOpensWithEveryRowAndItsDaysInTheFeed() async throws {
    let store = try open("v11")
    try await FixtureV1.expectContents(of: store)
    let feed = try await store.syncChanges(for: FixtureV1.ada.id, after: 0, limit: 10_000).changes
    var days = 0
    for habit in try await store.habits(for: FixtureV1.ada.id, includingArchived: true) {
      days += try await store.entries(of: habit.id, for: FixtureV1.ada.id).count
    }
    #expect(days > 0)
    #expect(feed.filter { $0.kind == .entry && $0.fields["status"] != .null }.count == days)
  }

  /// v12 keeps its amounts under a foreign key: the measurable habit's days come back whole.
  @Test func aV12DatabaseOpensWithEveryRowAndItsAmounts() async throws {
    let store = try open("v12")
    try await FixtureV1.expectContents(of: store, others: [FixtureV12.eve])
    #expect(try await store.habits(for: FixtureV12.eve.id, includingArchived: true) == [FixtureV12.run])
    #expect(try await store.entries(of: FixtureV12.run.id, for: FixtureV12.eve.id) == FixtureV12.days)
    try await Self.expectMonthsAgree(store)
  }

  /// v13 keeps each yes/no habit's months beside its entries (`habit_months`); v14 lets a
  /// writer of many days pause their triggers. A range marked afterwards keeps them too.
  @Test(arguments: ["v13", "v14"])
  func aDatabaseOpensWithEveryRowAndItsMonths(_ version: String) async throws {
    let store = try open(version)
    try await FixtureV1.expectContents(of: store, others: [FixtureV12.eve])
    #expect(try await store.entries(of: FixtureV12.run.id, for: FixtureV12.eve.id) == FixtureV12.days)
    try await Self.expectMonthsAgree(store)
    let days = (0..<70).map { day("2025-12-20").adding(days: $0) }
    try await store.setDays(days, of: FixtureV1.read.id, to: .skipped, note: nil, for: FixtureV1.ada.id)
    try await Self.expectMonthsAgree(store)
  }

  /// Every user's histories read from the months equal those built from the entries.
  static func expectMonthsAgree(_ store: SQLiteStore) async throws {
    for user in try await store.users() {
      let fromEntries = try await store.historiesFromEntries(for: user.id)
      #expect(try await store.histories(for: user.id) == fromEntries, "\(user.name)")
    }
  }

  func open(_ version: String) throws -> SQLiteStore {
    let database = try AppDatabase.open(at: try Self.fixtures.copyOfFixture(version))
    return SQLiteStore(database)
  }

  /// `TALLY_WRITE_FIXTURE=v2 swift test --filter writeLaterFixture` (likewise v3, v5, v10 … v17).
  @Test(
    .enabled(
      if: ["v2", "v3", "v5", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17"].contains(
        ProcessInfo.processInfo.environment["TALLY_WRITE_FIXTURE"] ?? "")))
  func writeLaterFixture() async throws {
    let version = try #require(ProcessInfo.processInfo.environment["TALLY_WRITE_FIXTURE"])
    let path: String
    if ["v5", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17"].contains(version) {
      path = temporaryDatabasePath()
      let database = try AppDatabase.open(at: path)
      try await FixtureV1.populate(SQLiteStore(database))
      if ["v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17"].contains(version) {
        _ = try await SQLiteStore(database).claimSignInAttempt(
          FixtureV10.key, at: FixtureV10.attemptedAt, limit: 5, window: 900)
      }
      if ["v12", "v13", "v14", "v15", "v16", "v17"].contains(version) { try await FixtureV12.write(SQLiteStore(database)) }
      if ["v15", "v16", "v17"].contains(version) { try await FixtureV15.write(SQLiteStore(database)) }
      if ["v16", "v17"].contains(version) { try await FixtureV16.write(SQLiteStore(database)) }
      if version == "v17" { try await FixtureV17.write(SQLiteStore(database)) }
      try database.writer.close()
    } else {
      path = try Self.fixtures.copyOfFixture("v1")
      let queue = try DatabaseQueue(path: path)
      let steps = version == "v2" ? 2 : 3
      try Migrations.migrator(Array(Migrations.all.prefix(steps))).migrate(queue)
      try await queue.write { db in try FixtureV3.write(db, version: version) }
      try queue.close()
    }
    try await keepAsFixture(path, version: version)
  }
}

/// What v10 adds to the v1 fixture: one sign-in attempt.
enum FixtureV10 {
  static let key = String(repeating: "ab", count: 32)
  static let attemptedAt = Date(timeIntervalSince1970: 1_773_000_000.250)
}

/// What the v12 fixture adds to the v1 fixture: eve, whose measurable habit has an amount on
/// each done day and none on a skipped one.
enum FixtureV12 {
  static let eve = try! User(
    id: UUID(uuidString: "0e000000-0000-4000-8000-000000000012")!, name: "eve",
    settings: UserSettings(timeZone: "Pacific/Apia"))
  static let run = try! Habit(
    id: UUID(uuidString: "12000000-0000-4000-8000-000000000001")!, name: "Run", createdDay: Day("2026-01-01")!,
    measure: Measure(unit: "km", target: Amount(thousandths: 5_000), direction: .atLeast))
  static let days = [
    HabitEntry(day: Day("2026-01-02")!, status: .done, note: "hills", amount: Amount(thousandths: 6_250)),
    HabitEntry(day: Day("2026-01-03")!, status: .skipped),
    HabitEntry(day: Day("2026-01-04")!, status: .done, amount: .zero),
  ]

  static func write(_ store: SQLiteStore) async throws {
    _ = try await store.createUser(eve)
    _ = try await store.createHabit(run, for: eve.id)
    for entry in days {
      let mark: DayMark = entry.amount.map { .amount($0) } ?? .skipped
      _ = try await store.setDay(entry.day, of: run.id, to: mark, note: entry.note, for: eve.id)
    }
  }
}

/// What v2 and v3 add to the v1 fixture, in the SQL of their time.
enum FixtureV3 {
  static let cy = try! User(
    id: UUID(uuidString: "0c000000-0000-4000-8000-000000000003")!, name: "cy",
    settings: UserSettings(timeZone: "Europe/London"))
  static let tmdbID = 95396
  /// Names that clash as Tally compares them now, which v1–v4 accepted.
  static let names = ["Read", "read", "READ", "Read (2)"]
  static let habitIDs = (1...4).map { UUID(uuidString: "1c000000-0000-4000-8000-00000000000\($0)")! }

  static func write(_ db: Database, version: String) throws {
    // v2: ada's password makes her the owner.
    try db.execute(
      sql: "INSERT INTO user_credentials (user_id, password_hash, role, updated_at) VALUES (?, ?, 'owner', ?)",
      arguments: [FixtureV1.ada.id.storeText, "$2b$04$" + String(repeating: "a", count: 53), "2026-01-01T00:00:00.000Z"])
    guard version == "v3" else { return }
    // v3: the show came from TMDB. And cy, whose habit names clash.
    try db.execute(
      sql: "UPDATE shows SET tmdb_id = ? WHERE id = ?", arguments: [tmdbID, FixtureV1.severance.id.storeText])
    try db.execute(
      sql: """
        INSERT INTO users (id, name, time_zone, day_switch_hour, first_weekday, locale,
          show_date_picker_grid, show_grid_dates)
        VALUES (?, 'cy', 'Europe/London', 0, 'sunday', 'en_US', 1, 0)
        """,
      arguments: [cy.id.storeText])
    for (index, name) in names.enumerated() {
      try db.execute(
        sql: """
          INSERT INTO habits (id, user_id, name, color, created_day, frequency, reminder, archived, sort_order)
          VALUES (?, ?, ?, '#8B5CF6', '2026-01-01', 'daily', 'none', 0, ?)
          """,
        arguments: [habitIDs[index].storeText, cy.id.storeText, name, index])
      try db.execute(
        sql: "INSERT INTO habit_entries (habit_id, day, status) VALUES (?, '2026-01-0\(index + 1)', 'done')",
        arguments: [habitIDs[index].storeText])
    }
  }
}
