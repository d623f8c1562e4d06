import Foundation
import GRDB
import TallyCore
import TallyStore
import Testing

@testable import TallySQLite

@Suite struct AppDatabaseTests {
  let ada = try! User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "Europe/Berlin"))

  /// A file database holding one user and one habit with a done day, closed again.
  func makeFile(migrator: DatabaseMigrator = Migrations.migrator()) async throws -> (String, Habit) {
    let path = temporaryDatabasePath()
    let database = try AppDatabase.open(at: path, migrator: migrator)
    let store = SQLiteStore(database)
    _ = try await store.createUser(ada)
    let habit = try await store.createHabit(
      Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: ada.id)
    try await store.setDay(day("2026-03-02"), of: habit.id, to: .done, note: "kept", for: ada.id)
    try database.writer.close()
    return (path, habit)
  }

  @Test func aFileIsWALWithForeignKeysAndFullSync() async throws {
    let database = try AppDatabase.open(at: temporaryDatabasePath())
    let (mode, foreignKeys, synchronous) = try await database.writer.write { db in
      (
        try String.fetchOne(db, sql: "PRAGMA journal_mode"),
        try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
        try Int.fetchOne(db, sql: "PRAGMA synchronous")
      )
    }
    #expect(mode == "wal")
    #expect(foreignKeys == 1)
    #expect(synchronous == 2)  // FULL
    #expect(database.writer is DatabasePool)
    let readerForeignKeys = try await database.reader.read { db in
      try Int.fetchOne(db, sql: "PRAGMA foreign_keys")
    }
    #expect(readerForeignKeys == 1)
  }

  /// What people do to back up a stopped server: copy the one file. After a close it holds
  /// everything, the log beside it empty; a new file's schema is in it from the start.
  @Test func closingLeavesTheWholeDatabaseInTheFile() async throws {
    let path = temporaryDatabasePath()
    let database = try AppDatabase.open(at: path)
    let store = SQLiteStore(database)
    _ = try await store.createUser(ada)
    let habit = try await store.createHabit(
      Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: ada.id)
    try await store.setDay(day("2026-03-02"), of: habit.id, to: .done, note: "kept", for: ada.id)
    #expect(try bytes(path + "-wal").count > 0)
    try database.close()
    #expect(try bytes(path + "-wal").isEmpty)

    let copy = temporaryDatabasePath()
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let alone = SQLiteStore(try AppDatabase.open(at: copy))
    #expect(try await alone.habit(id: habit.id, for: ada.id).name == "Read")
    #expect(try await alone.entries(of: habit.id, for: ada.id).map(\.note) == ["kept"])
  }

  @Test func inMemoryHasTheSameConfigurationAndSchema() async throws {
    let database = try AppDatabase.inMemory()
    let (foreignKeys, applied) = try await database.writer.read { db in
      (try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), try Migrations.migrator().appliedMigrations(db))
    }
    #expect(foreignKeys == 1)
    #expect(applied == AppDatabase.schemaVersions)
    #expect(AppDatabase.schemaVersions == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17"])
  }

  @Test func openingCreatesTheFolderAndReopeningKeepsTheData() async throws {
    let path = temporaryFolder().appendingPathComponent("a/b/c/tally.sqlite").path
    let database = try AppDatabase.open(at: path)
    let store = SQLiteStore(database)
    _ = try await store.createUser(ada)
    let habit = try await store.createHabit(
      Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: ada.id)
    try await store.setDays([day("2026-03-01"), day("2026-03-02")], of: habit.id, to: .done, note: nil, for: ada.id)
    try database.writer.close()

    let reopened = SQLiteStore(try AppDatabase.open(at: path))
    #expect(try await reopened.user(named: "ada") == ada)
    #expect(try await reopened.habits(for: ada.id, includingArchived: true) == [habit])
    #expect(try await reopened.entries(of: habit.id, for: ada.id).count == 2)
  }

  @Test func aNewerSchemaIsRefusedAndLeftByteForByte() async throws {
    let (path, _) = try await makeFile()
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v110'), ('v120'), ('v99')")
    }
    try queue.close()
    let before = try bytes(path)

    do {
      _ = try AppDatabase.open(at: path)
      Issue.record("a database from a newer Tally was opened")
    } catch {
      #expect(error == .newerSchema(path: path, version: "v120", known: current))
      #expect(error.description.contains(path))
      #expect(error.description.contains("v120"))
    }
    #expect(try bytes(path) == before)
  }

  @Test func aFailedMigrationLeavesTheFileAsItWas() async throws {
    let (path, habit) = try await makeFile()
    let before = try bytes(path)
    let v2: Migrations.Step = (
      "next",
      { @Sendable db in
        try db.execute(sql: "ALTER TABLE habits ADD COLUMN colour TEXT")
        try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
      }
    )
    let broken = Migrations.migrator(Migrations.all + [v2])

    do {
      _ = try AppDatabase.open(at: path, migrator: broken)
      Issue.record("a failing migration was reported as done")
    } catch {
      guard case .migrationFailed(let failedPath, let version, let target, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect((failedPath, version, target) == (path, current, "next"))
      #expect(reason.contains("no_such_table"))
      #expect(error.description.contains(path) && error.description.contains(current))
    }
    #expect(try bytes(path) == before)

    // This program's own schema still opens it, with everything in it.
    let store = SQLiteStore(try AppDatabase.open(at: path))
    #expect(try await store.entries(of: habit.id, for: ada.id).map(\.note) == ["kept"])
  }

  /// With several migrations pending, a failing later one must not leave the earlier ones
  /// applied: the file stays at the schema it had.
  @Test func aFailureLeavesEarlierPendingMigrationsUnappliedToo() async throws {
    let (path, _) = try await makeFile()
    let before = try bytes(path)
    let v2: Migrations.Step = (
      "next", { @Sendable db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
    )
    let v3: Migrations.Step = (
      "after-next", { @Sendable db in try db.execute(sql: "INSERT INTO no_such_table VALUES (1)") }
    )
    #expect(throws: StoreError.self) {
      try AppDatabase.open(at: path, migrator: Migrations.migrator(Migrations.all + [v2, v3]))
    }
    do {
      _ = try AppDatabase.open(at: path, migrator: Migrations.migrator(Migrations.all + [v2, v3]))
    } catch {
      guard case .migrationFailed(_, let version, let target, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect((version, target) == (current, "after-next"))
    }
    #expect(try bytes(path) == before)
    let queue = try DatabaseQueue(path: path)
    let applied = try await queue.read { db in try Migrations.migrator().appliedMigrations(db) }
    #expect(applied == AppDatabase.schemaVersions)
    #expect(try await queue.read { db in try db.tableExists("notes") } == false)
  }

  @Test func aPendingMigrationRunsAndKeepsEveryRow() async throws {
    let (path, habit) = try await makeFile()
    let v2: Migrations.Step = (
      "next", { @Sendable db in try db.execute(sql: "ALTER TABLE habits ADD COLUMN colour TEXT") }
    )
    let next = Migrations.migrator(Migrations.all + [v2])
    let database = try AppDatabase.open(at: path, migrator: next)
    let applied = try await database.reader.read { db in try next.appliedMigrations(db) }
    #expect(applied == AppDatabase.schemaVersions + ["next"])
    let store = SQLiteStore(database)
    #expect(try await store.habit(id: habit.id, for: ada.id) == habit)
    #expect(try await store.entries(of: habit.id, for: ada.id).count == 1)
  }

  @Test func aDatabaseTallyDidNotMakeIsLeftAlone() async throws {
    let path = temporaryDatabasePath()
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in try db.execute(sql: "CREATE TABLE recipes (name TEXT)") }
    try queue.close()
    let before = try bytes(path)
    #expect(throws: StoreError.unreadable(path: path, reason: "it is an SQLite database, but not one Tally made")) {
      try AppDatabase.open(at: path)
    }
    #expect(try bytes(path) == before)

    let text = temporaryDatabasePath()
    try Data("Dear diary,\n".utf8).write(to: URL(fileURLWithPath: text))
    do {
      _ = try AppDatabase.open(at: text)
      Issue.record("a text file was opened as a database")
    } catch {
      guard case .unreadable(let failedPath, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(failedPath == text)
    }
    #expect(try bytes(text) == Data("Dear diary,\n".utf8))
  }

  /// Issue 17: a 0-byte file is most likely a wrong path, so it is only taken when asked.
  @Test func anEmptyFileIsRefusedUnlessAdopted() async throws {
    let path = temporaryDatabasePath()
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    #expect {
      try AppDatabase.open(at: path)
    } throws: { error in
      guard case StoreError.unreadable(let failed, let reason) = error else { return false }
      return failed == path && reason.contains("--adopt-empty-db")
    }
    #expect(try bytes(path) == Data())
    let store = SQLiteStore(try AppDatabase.open(at: path, adoptingEmptyFile: true))
    #expect(try await store.users().isEmpty)
  }

  @Test func concurrentWritesAllLand() async throws {
    let path = temporaryDatabasePath()
    let store = SQLiteStore(try AppDatabase.open(at: path))
    _ = try await store.createUser(ada)
    let habit = try await store.createHabit(
      Habit(id: UUID(), name: "Read", createdDay: day("2026-01-01")), for: ada.id)
    let user = ada.id
    try await withThrowingTaskGroup(of: Void.self) { group in
      for offset in 0..<50 {
        group.addTask {
          try await store.setDay(day("2026-01-01").adding(days: offset), of: habit.id, to: .done, for: user)
        }
      }
      try await group.waitForAll()
    }
    #expect(try await store.entries(of: habit.id, for: ada.id).count == 50)
  }

  @Test func storedValuesAreReadableText() async throws {
    let database = try AppDatabase.inMemory()
    let store = SQLiteStore(database)
    _ = try await store.createUser(ada)
    let habit = try await store.createHabit(
      Habit(
        id: UUID(), name: "Read", createdDay: day("2026-03-01"),
        frequency: .weekly(targetPerWeek: 2), reminder: .single(try WallTime(hour: 7))),
      for: ada.id)
    try await store.addChatMessage(
      ChatMessage(id: UUID(), day: day("2026-03-08"), role: .user, text: "hi", sentAt: instant(ms: 1_772_958_600_123)),
      for: ada.id)
    let row = try database.reader.read { db in
      try Row.fetchOne(db, sql: "SELECT id, created_day, frequency, target_per_week, reminder, reminder_start FROM habits")
    }
    #expect(row?["id"] == habit.id.uuidString.lowercased())
    #expect(row?["created_day"] == "2026-03-01")
    #expect(row?["frequency"] == "weekly")
    #expect(row?["target_per_week"] == 2)
    #expect(row?["reminder"] == "single")
    #expect(row?["reminder_start"] == "07:00")
    let sentAt = try await database.reader.read { db in
      try String.fetchOne(db, sql: "SELECT sent_at FROM chat_messages")
    }
    #expect(sentAt == "2026-03-08T08:30:00.123Z")
  }
}

/// The newest schema this program knows: a file made by the tests is at it.
private let current = AppDatabase.schemaVersions.last!
