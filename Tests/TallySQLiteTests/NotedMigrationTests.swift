import Foundation
import GRDB
import TallyCore
import TallyStore
import Testing

@testable import TallySQLite

/// v9 rebuilds `habit_entries` so a day not done may keep a note: a v8 file keeps every entry
/// with its note and amount, and the database refuses a noted row without a note.
@Suite struct NotedMigrationTests {
  static let user = UUID()
  static let read = UUID()
  static let run = UUID()

  func v8Database() throws -> String {
    try databaseAtVersion(8, user: Self.user) { db in
      try db.execute(
        sql: """
          INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, reminder, archived,
            sort_order, kind, unit, target, target_direction)
          VALUES (?, ?, 'Read', 'read', '#8B5CF6', '2026-01-01', 'daily', 'none', 0, 0, 'yesNo', NULL, NULL, NULL),
                 (?, ?, 'Run', 'run', '#22C55E', '2026-01-01', 'daily', 'none', 0, 1, 'measurable', 'km', 5000, 'atLeast')
          """,
        arguments: [Self.read.storeText, Self.user.storeText, Self.run.storeText, Self.user.storeText])
      try db.execute(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note, amount) VALUES
            (?, '2026-01-01', 'done', 'first', NULL), (?, '2026-01-02', 'skipped', 'ill', NULL),
            (?, '2026-01-01', 'done', NULL, 5500), (?, '2026-01-02', 'skipped', NULL, NULL)
          """,
        arguments: [Self.read.storeText, Self.read.storeText, Self.run.storeText, Self.run.storeText])
    }
  }

  @Test func aV8FileKeepsEveryEntry() async throws {
    let store = SQLiteStore(try AppDatabase.open(at: try v8Database()))
    #expect(
      try await store.entries(of: Self.read, for: Self.user) == [
        HabitEntry(day: day("2026-01-01"), status: .done, note: "first"),
        HabitEntry(day: day("2026-01-02"), status: .skipped, note: "ill"),
      ])
    #expect(
      try await store.entries(of: Self.run, for: Self.user) == [
        HabitEntry(day: day("2026-01-01"), status: .done, amount: Amount(thousandths: 5_500)),
        HabitEntry(day: day("2026-01-02"), status: .skipped),
      ])
    try await store.setDay(day("2026-01-03"), of: Self.run, to: .noted, note: "knee", for: Self.user)
    #expect(try await store.entries(of: Self.run, for: Self.user).last?.status == .noted)
  }

  @Test func theDatabaseRefusesANotedRowWithoutANoteOrWithAnAmount() async throws {
    let database = try AppDatabase.open(at: try v8Database())
    let (read, run) = (Self.read.storeText, Self.run.storeText)
    for sql in [
      "INSERT INTO habit_entries (habit_id, day, status, note) VALUES ('\(read)', '2026-02-01', 'noted', NULL)",
      "INSERT INTO habit_entries (habit_id, day, status, note) VALUES ('\(read)', '2026-02-01', 'noted', '')",
      "INSERT INTO habit_entries (habit_id, day, status, note, amount) VALUES ('\(run)', '2026-02-01', 'noted', 'x', 1000)",
      "INSERT INTO habit_entries (habit_id, day, status, note) VALUES ('\(read)', '2026-02-01', 'maybe', 'x')",
      "UPDATE habit_entries SET status = 'noted' WHERE habit_id = '\(run)' AND day = '2026-01-02'",
    ] {
      await #expect(throws: DatabaseError.self, "\(sql)") {
        try await database.writer.write { db in try db.execute(sql: sql) }
      }
    }
    // v8's triggers were made again with the table: an amount still belongs to measurable habits.
    await #expect(throws: DatabaseError.self) {
      try await database.writer.write { db in
        try db.execute(
          sql: "INSERT INTO habit_entries (habit_id, day, status, amount) VALUES ('\(read)', '2026-02-02', 'done', 1000)")
      }
    }
  }
}

/// Fixtures/v9.sqlite: the v1 fixture's rows written while v9 is the newest schema, and dee's
/// measurable habit with a done, a skipped and a noted day.
enum FixtureV9 {
  static let dee = try! User(
    id: UUID(uuidString: "0d000000-0000-4000-8000-000000000009")!, name: "dee",
    settings: UserSettings(timeZone: "Pacific/Apia"))
  static let run = try! Habit(
    id: UUID(uuidString: "19000000-0000-4000-8000-000000000001")!, name: "Swim laps", createdDay: day("2026-01-01"),
    frequency: .timesInDays(times: 1, days: 5),
    measure: Measure(unit: "laps", target: Amount(20), direction: .atLeast), description: "Outdoor pool")
  static let entries = [
    HabitEntry(day: day("2026-01-01"), status: .done, amount: Amount(thousandths: 22_500)),
    HabitEntry(day: day("2026-01-02"), status: .skipped, note: "closed"),
    HabitEntry(day: day("2026-01-03"), status: .noted, note: "too cold"),
  ]

  static func populate(_ store: some Store) async throws {
    try await FixtureV1.populate(store)
    _ = try await store.createUser(dee)
    var additions = HistoryAdditions()
    additions.newHabits = [UserSnapshot.HabitWithEntries(habit: run, entries: entries)]
    try await store.addHistory(additions, for: dee.id)
  }
}

@Suite struct V9FixtureTests {
  @Test func aV9DatabaseOpensWithEveryRow() async throws {
    let store = SQLiteStore(try AppDatabase.open(at: try FixtureTests().copyOfFixture("v9")))
    try await FixtureV1.expectContents(of: store, others: [FixtureV9.dee])
    let habits = try await store.habits(for: FixtureV9.dee.id, includingArchived: true)
    #expect(habits.map(\.name) == [FixtureV9.run.name])
    #expect(habits.map(\.measure) == [FixtureV9.run.measure])
    #expect(habits.map(\.frequency) == [FixtureV9.run.frequency])
    #expect(try await store.entries(of: FixtureV9.run.id, for: FixtureV9.dee.id) == FixtureV9.entries)
  }

  /// `TALLY_WRITE_FIXTURE=v9 swift test --filter writeV9Fixture`, only while v9 is the newest.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TALLY_WRITE_FIXTURE"] == "v9"))
  func writeV9Fixture() async throws {
    let database = try AppDatabase.open(at: temporaryDatabasePath())
    try await FixtureV9.populate(SQLiteStore(database))
    // A copy through SQLite's backup: the store's own file stays open while it lives.
    let path = temporaryDatabasePath()
    try database.backup(to: path)
    try await keepAsFixture(path, version: "v9")
  }
}
