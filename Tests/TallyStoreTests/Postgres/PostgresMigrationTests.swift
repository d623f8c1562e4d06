import Foundation
import PostgresNIO
import TallyCore
import TallyPostgresTesting
import TallyStore
import Testing

@testable import TallyPostgres

/// v2 widens `habits` for measurable habits: a v1 database keeps every habit, entry and
/// delivery, its habits read as yes/no with the schedules they had, and the database itself
/// refuses rows that break the new rules.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresMigrationTests {
  let user = UUID()
  let daily = UUID()
  let weekly = UUID()

  /// A fresh schema at v1 holding two habits, three entries and a delivery, then migrated.
  func migratedV1Database() async throws -> PostgresAppDatabase {
    let location = try PostgresTesting.freshLocation()
    let old = try await PostgresAppDatabase.open(
      location, connections: 1, timeout: PostgresTesting.timeout, logger: PostgresAppDatabase.quiet,
      migrations: Array(PostgresMigrations.all.prefix(1)))
    try await old.transaction { [user, daily, weekly] connection in
      try await connection.run(
        """
        INSERT INTO users (id, name, time_zone, day_switch_hour, first_weekday, locale, show_date_picker_grid,
          show_grid_dates)
        VALUES (\(user), 'ada', 'Europe/Berlin', 3, 'monday', 'en_US', true, false)
        """)
      try await connection.run(
        """
        INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, target_per_week,
          reminder, reminder_start, archived, sort_order)
        VALUES (\(daily), \(user), 'Read', 'read', '#8B5CF6', '2026-01-01', 'daily', NULL, 'single', '08:30', false, 0),
          (\(weekly), \(user), 'Swim', 'swim', '#22C55E', '2026-01-02', 'weekly', 3, 'none', NULL, true, 1)
        """)
      try await connection.run(
        """
        INSERT INTO habit_entries (habit_id, day, status, note) VALUES
          (\(daily), '2026-01-01', 'done', 'first'), (\(daily), '2026-01-02', 'skipped', NULL),
          (\(weekly), '2026-01-05', 'done', NULL)
        """)
      try await connection.run(
        """
        INSERT INTO reminder_deliveries (user_id, occurrence_key, habit_id, sent_at)
        VALUES (\(user), 'k1', \(daily), '2026-01-01T07:30:00.000Z')
        """)
    }
    old.close()
    return try await PostgresTesting.open(location)
  }

  @Test func aV1DatabaseKeepsEveryRowAndReadsAsYesNo() async throws {
    let database = try await migratedV1Database()
    let store = PostgresStore(database)
    let habits = try await store.habits(for: user, includingArchived: true)
    #expect(habits.map(\.name) == ["Read", "Swim"])
    #expect(habits.allSatisfy { $0.kind == .yesNo && $0.description == nil })
    #expect(habits.map(\.frequency) == [.daily, .weekly(targetPerWeek: 3)])
    #expect(habits[0].reminder == .single(try WallTime(parsing: "08:30", field: "time")))
    #expect(habits[1].archived)
    #expect(
      try await store.entries(of: daily, for: user) == [
        HabitEntry(day: day("2026-01-01"), status: .done, note: "first"),
        HabitEntry(day: day("2026-01-02"), status: .skipped),
      ])
    #expect(try await store.entries(of: weekly, for: user).count == 1)
    #expect(try await database.rowCounts(["reminder_deliveries"]) == ["reminder_deliveries": 1])
    // The migrated habits take the new schedules and measures like any other.
    var swim = habits[1]
    swim.frequency = .timesInDays(times: 2, days: 5)
    swim.description = "Before work"
    #expect(try await store.updateHabit(swim, for: user) == swim)
    #expect(try await store.habit(id: weekly, for: user) == swim)
  }

  @Test func theDatabaseRefusesRowsThatBreakTheKindOrTheSchedule() async throws {
    let database = try await migratedV1Database()
    // Swim becomes a daily habit without entries, which may become measurable.
    try await database.transaction { [weekly] connection in
      try await connection.run("DELETE FROM habit_entries WHERE habit_id = \(weekly)")
      try await connection.run("UPDATE habits SET frequency = 'daily', target_per_week = NULL WHERE id = \(weekly)")
    }
    let statements: [PostgresQuery] = [
      "INSERT INTO habit_entries (habit_id, day, status, amount) VALUES (\(daily), '2026-02-01', 'done', 1000)",
      "UPDATE habits SET kind = 'measurable', unit = 'km', target = 0, target_direction = 'atLeast' WHERE id = \(weekly)",
      "UPDATE habits SET kind = 'measurable', unit = 'km', target = 5000 WHERE id = \(weekly)",
      "UPDATE habits SET frequency = 'timesInDays', schedule_times = 2 WHERE id = \(daily)",
      "UPDATE habits SET frequency = 'monthly', schedule_times = 29 WHERE id = \(daily)",
      "UPDATE habits SET frequency = 'weekly', target_per_week = NULL WHERE id = \(daily)",
      "UPDATE habits SET description = '' WHERE id = \(daily)",
    ]
    for statement in statements {
      await #expect(throws: (any Error).self, "\(statement.sql)") {
        try await database.transaction { connection in try await connection.run(statement) }
      }
    }
    let store = PostgresStore(database)
    #expect(try await store.habits(for: user, includingArchived: true).allSatisfy { $0.kind == .yesNo })
    #expect(try await store.entries(of: daily, for: user).count == 2)
    // The same columns, whole, are taken.
    try await database.transaction { [weekly] connection in
      try await connection.run(
        """
        UPDATE habits SET kind = 'measurable', unit = 'km', target = 5000, target_direction = 'atMost'
        WHERE id = \(weekly)
        """)
      try await connection.run(
        "INSERT INTO habit_entries (habit_id, day, status, amount) VALUES (\(weekly), '2026-02-01', 'done', 1250)")
    }
    #expect(
      try await store.entries(of: weekly, for: user) == [
        HabitEntry(day: day("2026-02-01"), status: .done, amount: Amount(thousandths: 1250))
      ])
    // A kind changed under marked days (only sync does that) converts them: done days get the
    // target, and back again the amounts go, as SQLite's v8 trigger does.
    _ = try await database.transaction { [daily] connection in
      try await connection.run(
        "UPDATE habits SET kind = 'measurable', unit = 'km', target = 5000, target_direction = 'atLeast' WHERE id = \(daily)")
    }
    let measured = try await store.entries(of: daily, for: user)
    #expect(measured.contains { $0.status == .done })
    #expect(measured.allSatisfy { $0.amount == ($0.status == .done ? Amount(thousandths: 5000) : nil) })
    _ = try await database.transaction { [daily] connection in
      try await connection.run(
        "UPDATE habits SET kind = 'yesNo', unit = NULL, target = NULL, target_direction = NULL WHERE id = \(daily)")
    }
    #expect(try await store.entries(of: daily, for: user).allSatisfy { $0.amount == nil })
  }

  /// v3: a noted day (not done, only a note) must hold a note and no amount; v1's rows stay.
  @Test func theDatabaseRefusesANotedRowWithoutANote() async throws {
    let database = try await migratedV1Database()
    let statements: [PostgresQuery] = [
      "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (\(daily), '2026-02-01', 'noted', NULL)",
      "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (\(daily), '2026-02-01', 'noted', '')",
      "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (\(daily), '2026-02-01', 'maybe', 'x')",
      "UPDATE habit_entries SET status = 'noted' WHERE habit_id = \(daily) AND day = '2026-01-02'",
    ]
    for statement in statements {
      await #expect(throws: (any Error).self, "\(statement.sql)") {
        try await database.transaction { connection in try await connection.run(statement) }
      }
    }
    _ = try await database.transaction { [daily] connection in
      try await connection.run(
        "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (\(daily), '2026-02-01', 'noted', 'rain')")
    }
    #expect(
      try await PostgresStore(database).entries(of: daily, for: user).map(\.status) == [.done, .skipped, .noted])
  }

  /// Instances started together take turns: one that waits for another's migration longer
  /// than its own request limit still starts, rather than giving up on every restart. The
  /// limit is seconds, not less: the queries after the wait are held to it too, and on a
  /// loaded machine (CI beside benchmarks) a half-second limit failed one.
  @Test func anInstanceWaitingForAnothersMigrationStillStarts() async throws {
    let location = try PostgresTesting.freshLocation()
    let first = try await PostgresTesting.open(location)
    defer { first.close() }
    let (locked, lockHeld) = AsyncStream.makeStream(of: Void.self)
    let migrating = Task {
      try await first.transaction { connection in
        try await connection.run(
          "SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey), hashtext(\(location.schema)))")
        lockHeld.yield()
        try await connection.run("SELECT pg_sleep(6)")
      }
    }
    for await _ in locked { break }
    let second = try await PostgresAppDatabase.open(location, connections: 1, timeout: .seconds(3))
    defer { second.close() }
    try await migrating.value
    #expect(try await PostgresStore(second).users().isEmpty)
  }

  @Test func aFunctionBodyStaysOneStatement() {
    let sql = """
      CREATE TABLE a (id INTEGER);
      CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RETURN NEW;
      END
      $$;
      CREATE TABLE b (id INTEGER)
      """
    let statements = PostgresMigrations.statements(sql)
    #expect(statements.count == 3)
    #expect(statements[1].hasPrefix("CREATE FUNCTION") && statements[1].hasSuffix("$$"))
  }
}
