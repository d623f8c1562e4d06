import Foundation
import GRDB
import TallyCore
import TallyStore
import Testing

@testable import TallySQLite

/// v8 rebuilds `habits`: a v7 file keeps every habit, entry and delivery, and its habits read
/// as yes/no with the schedules they had.
@Suite struct MeasurableMigrationTests {
  static let user = UUID()
  static let daily = UUID()
  static let weekly = UUID()

  func v7Database() throws -> String {
    try databaseAtVersion(7, user: Self.user) { db in
      try db.execute(
        sql: """
          INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, target_per_week,
            reminder, reminder_start, archived, sort_order)
          VALUES (?, ?, 'Read', 'read', '#8B5CF6', '2026-01-01', 'daily', NULL, 'single', '08:30', 0, 0),
                 (?, ?, 'Swim', 'swim', '#22C55E', '2026-01-02', 'weekly', 3, 'none', NULL, 1, 1)
          """,
        arguments: [Self.daily.storeText, Self.user.storeText, Self.weekly.storeText, Self.user.storeText])
      try db.execute(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note) VALUES
            (?, '2026-01-01', 'done', 'first'), (?, '2026-01-02', 'skipped', NULL), (?, '2026-01-05', 'done', NULL)
          """,
        arguments: [Self.daily.storeText, Self.daily.storeText, Self.weekly.storeText])
      try db.execute(
        sql: """
          INSERT INTO reminder_deliveries (user_id, occurrence_key, habit_id, sent_at)
          VALUES (?, 'k1', ?, '2026-01-01T07:30:00.000Z')
          """,
        arguments: [Self.user.storeText, Self.daily.storeText])
    }
  }

  @Test func aV7FileKeepsEveryRowAndReadsAsYesNo() async throws {
    let database = try AppDatabase.open(at: try v7Database())
    let store = SQLiteStore(database)
    let habits = try await store.habits(for: Self.user, includingArchived: true)
    #expect(habits.map(\.name) == ["Read", "Swim"])
    #expect(habits.allSatisfy { $0.kind == .yesNo && $0.description == nil })
    #expect(habits.map(\.frequency) == [.daily, .weekly(targetPerWeek: 3)])
    #expect(habits[0].reminder == .single(try WallTime(parsing: "08:30", field: "time")))
    #expect(habits[1].archived)
    #expect(
      try await store.entries(of: Self.daily, for: Self.user) == [
        HabitEntry(day: Day("2026-01-01")!, status: .done, note: "first"),
        HabitEntry(day: Day("2026-01-02")!, status: .skipped),
      ])
    #expect(try await store.entries(of: Self.weekly, for: Self.user).count == 1)
    let (deliveries, broken) = try await database.writer.read { db in
      (try Int.fetchOne(db, sql: "SELECT count(*) FROM reminder_deliveries"),
       try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)
    }
    #expect(deliveries == 1)
    #expect(broken == 0)
    // The names stay unique per user and deleting a habit still takes its rows with it.
    await #expect(throws: StoreError.self) {
      try await store.createHabit(try Habit(id: UUID(), name: "READ", createdDay: Day("2026-01-01")!), for: Self.user)
    }
    try await store.deleteHabit(id: Self.daily, for: Self.user)
    let (left, entries) = try await database.writer.read { db in
      (try Int.fetchOne(db, sql: "SELECT count(*) FROM reminder_deliveries"),
       try Int.fetchOne(db, sql: "SELECT count(*) FROM habit_entries"))
    }
    #expect(left == 0)
    #expect(entries == 1)
  }

  @Test func theDatabaseRefusesAmountsThatBreakTheKind() async throws {
    let database = try AppDatabase.open(at: try v7Database())
    let statements = [
      "INSERT INTO habit_entries (habit_id, day, status, amount) VALUES ('\(Self.daily.storeText)', '2026-02-01', 'done', 1000)",
      "UPDATE habits SET kind = 'measurable', unit = 'km', target = 0, target_direction = 'atLeast' WHERE id = '\(Self.weekly.storeText)'",
      // A NULL would leave a CHECK unknown, which SQLite lets through unless the CHECK says IS NOT NULL.
      "UPDATE habits SET frequency = 'timesInDays', schedule_times = 2 WHERE id = '\(Self.daily.storeText)'",
      "UPDATE habits SET frequency = 'monthly' WHERE id = '\(Self.daily.storeText)'",
      "UPDATE habits SET target_per_week = NULL WHERE id = '\(Self.weekly.storeText)'",
      """
      INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, reminder, archived, sort_order,
        kind, unit, target)
      VALUES ('\(UUID().storeText)', '\(Self.user.storeText)', 'Run', 'run', '#8B5CF6', '2026-01-01', 'daily', 'none', 0, 2,
        'measurable', 'km', 5000)
      """,
    ]
    for sql in statements {
      await #expect(throws: DatabaseError.self, "\(sql)") {
        try await database.writer.write { db in try db.execute(sql: sql) }
      }
    }
    // A kind changed under marked days converts them: done days get the target, and back.
    let measured = try await database.writer.write { db in
      try db.execute(
        sql: "UPDATE habits SET kind = 'measurable', unit = 'km', target = 5000, target_direction = 'atLeast' WHERE id = ?",
        arguments: [Self.daily.storeText])
      return try Row.fetchAll(db, sql: "SELECT status, amount FROM habit_entries WHERE habit_id = ? ORDER BY day", arguments: [Self.daily.storeText])
        .map { "\($0["status"] as String) \($0["amount"] as Int64?, default: "-")" }
    }
    #expect(measured == ["done 5000", "skipped -"])
    let plain = try await database.writer.write { db in
      try db.execute(
        sql: "UPDATE habits SET kind = 'yesNo', unit = NULL, target = NULL, target_direction = NULL WHERE id = ?",
        arguments: [Self.daily.storeText])
      return try Int.fetchOne(db, sql: "SELECT count(*) FROM habit_entries WHERE amount IS NOT NULL")
    }
    #expect(plain == 0)
  }
}
