import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync
import Testing

@testable import TallySQLite

/// v12 holds "an amount on a done day of a measurable habit, and only there" with a foreign key
/// instead of v8's triggers: every day comes through the rebuilt table as it was, and the
/// database still refuses each way of breaking the rule.
@Suite struct AmountKeyMigrationTests {
  static let user = UUID()
  static let read = UUID()
  static let run = UUID()

  func v11Database() throws -> String {
    try databaseAtVersion(11, user: Self.user) { db in
      try db.execute(
        sql: """
          INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, reminder, archived,
            sort_order, kind, unit, target, target_direction)
          VALUES (?1, ?3, 'Read', 'read', '#8B5CF6', '2026-01-01', 'daily', 'none', 0, 0, 'yesNo', NULL, NULL, NULL),
            (?2, ?3, 'Run', 'run', '#8B5CF6', '2026-01-01', 'daily', 'none', 0, 1, 'measurable', 'km', 5000, 'atLeast')
          """,
        arguments: [Self.read.storeText, Self.run.storeText, Self.user.storeText])
      try db.execute(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note, amount, user_id, stamp, position) VALUES
            (?1, '2026-01-01', 'done', NULL, NULL, ?3, ?4, 1),
            (?1, '2026-01-02', 'noted', 'tired', NULL, ?3, ?7, 4),
            (?2, '2026-01-01', 'done', 'easy', 6500, ?3, ?5, 2),
            (?2, '2026-01-02', 'skipped', NULL, NULL, ?3, ?6, 3)
          """,
        arguments: StatementArguments([Self.read.storeText, Self.run.storeText, Self.user.storeText] + (1...4).map(Self.stamp)))
    }
  }

  static func stamp(_ ms: Int64) -> String {
    HybridStamp(milliseconds: 1_764_000_000_000 + ms, counter: 0, device: user).text
  }

  static func days(_ db: Database) throws -> [String] {
    try Row.fetchAll(
      db, sql: "SELECT habit_id, day, status, note, amount, user_id, stamp, position FROM habit_entries ORDER BY habit_id, day"
    ).map { $0.description }
  }

  @Test func everyDayIsKeptAsItWas() async throws {
    let path = try v11Database()
    let queue = try DatabaseQueue(path: path)
    let before = try await queue.read(Self.days)
    try queue.close()
    let database = try AppDatabase.open(at: path)
    let after = try await database.writer.read(Self.days)
    #expect(before.count == 4)
    #expect(after == before)
    let triggers = try await database.writer.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
    }
    #expect(triggers == ["habit_months_delete", "habit_months_insert", "habit_months_update", "habits_kind_converts_entries"])
  }

  @Test func theDatabaseStillRefusesAnAmountThatBreaksTheKind() async throws {
    let database = try AppDatabase.open(at: try v11Database())
    let (read, run) = (Self.read.storeText, Self.run.storeText)
    let refused = [
      // An amount on a yes/no habit's day, and a measurable habit's done day without one.
      "INSERT INTO habit_entries (habit_id, day, status, amount) VALUES ('\(read)', '2026-02-01', 'done', 1000)",
      "INSERT INTO habit_entries (habit_id, day, status) VALUES ('\(run)', '2026-02-01', 'done')",
      "UPDATE habit_entries SET amount = NULL WHERE habit_id = '\(run)' AND day = '2026-01-01'",
      "UPDATE habit_entries SET amount = 1 WHERE habit_id = '\(read)' AND day = '2026-01-01'",
      // An amount on a day not done, and a day of no habit.
      "INSERT INTO habit_entries (habit_id, day, status, amount) VALUES ('\(run)', '2026-02-02', 'skipped', 1000)",
      "INSERT INTO habit_entries (habit_id, day, status) VALUES ('\(UUID().storeText)', '2026-02-01', 'skipped')",
    ]
    for sql in refused {
      await #expect(throws: DatabaseError.self, "\(sql)") {
        try await database.writer.write { db in try db.execute(sql: sql) }
      }
    }
    let accepted = try await database.writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, amount) VALUES
            ('\(run)', '2026-02-03', 'done', 0), ('\(run)', '2026-02-04', 'skipped', NULL),
            ('\(read)', '2026-02-03', 'done', NULL)
          """)
      return try Int.fetchOne(db, sql: "SELECT count(*) FROM habit_entries")
    }
    #expect(accepted == 7)
    // A kind changed under the days converts them, and deleting a habit takes its days.
    let converted = try await database.writer.write { db in
      try db.execute(
        sql: "UPDATE habits SET kind = 'yesNo', unit = NULL, target = NULL, target_direction = NULL WHERE id = ?",
        arguments: [run])
      try db.execute(sql: "DELETE FROM habits WHERE id = ?", arguments: [read])
      return try Row.fetchAll(db, sql: "SELECT day, status, amount FROM habit_entries ORDER BY habit_id, day")
        .map { "\($0["day"] as String) \($0["status"] as String) \($0["amount"] as Int64?, default: "-")" }
    }
    #expect(converted == ["2026-01-01 done -", "2026-01-02 skipped -", "2026-02-03 done -", "2026-02-04 skipped -"])
  }
}
