import Foundation
import GRDB
import PropertyBased
import TallyCore
import TallyStore
import TallyTestFiles
import Testing

@testable import TallySQLite

/// `habit_months` (v13) against the entries it is kept from: after random writes through every
/// path that writes a day — marks of single days and ranges, notes, imports into new and
/// existing habits, a restore, habits turned measurable and back, deleted habits, and rows
/// written and deleted in SQL as another program would — the histories read from the months
/// equal those built from every entry, on month ends, leap days and years apart.
@Suite struct HabitMonthsTests {
  @Test func historiesFromMonthsEqualThoseFromEveryEntry() async throws {
    await propertyCheck(count: 40, input: Gen.int(in: 0..<1_000_000_000).array(of: 1...40)) { codes in
      do {
        try await Self.run(codes)
      } catch {
        Issue.record("the writes \(codes) failed: \(error)")
      }
    }
  }

  /// A v12 file's entries are written into their months when it is migrated.
  @Test func migratingFillsTheMonthsFromTheEntries() async throws {
    let user = UUID()
    let path = try databaseAtVersion(12, user: user) { db in
      try db.execute(
        sql: """
          INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, reminder, archived,
            sort_order, kind)
          VALUES ('11111111-1111-1111-1111-111111111111', ?, 'Read', 'read', '#8B5CF6', '2024-01-01', 'daily', 'none', 0,
            0, 'yesNo');
          INSERT INTO habit_entries (habit_id, day, status, note) VALUES
            ('11111111-1111-1111-1111-111111111111', '2024-02-29', 'done', NULL),
            ('11111111-1111-1111-1111-111111111111', '2024-03-01', 'skipped', NULL),
            ('11111111-1111-1111-1111-111111111111', '2024-03-31', 'noted', 'rain'),
            ('11111111-1111-1111-1111-111111111111', '2025-12-31', 'done', NULL);
          """, arguments: [user.storeText])
    }
    let store = SQLiteStore(try AppDatabase.open(at: path))
    let read = try #require(UUID(uuidString: "11111111-1111-1111-1111-111111111111"))
    let history = try #require(try await store.histories(for: user)[read])
    #expect(history == HabitHistory(try await store.entries(of: read, for: user)))
    #expect(history.firstDay == day("2024-02-29"))
    #expect(history.status(on: day("2024-03-01")) == .skipped)
    #expect(history.status(on: day("2024-03-31")) == nil)
    #expect(history.isCompleted(on: day("2025-12-31")))
  }

  /// Writers of many days pause the triggers in their own transaction (v14); a transaction
  /// that leaves the pause behind cannot commit, so every later write still keeps the months.
  @Test func aPauseLeftBehindCannotBeCommitted() async throws {
    let database = try AppDatabase.open(at: TestFiles.database("habit-months-pause"))
    let store = SQLiteStore(database)
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    let habit = try await store.createHabit(Habit(id: UUID(), name: "Read", createdDay: day("2024-02-01")), for: user.id)
    await #expect(throws: DatabaseError.self) {
      try await database.writer.write { db in
        try db.execute(sql: "INSERT INTO habit_months_pause (id, resume_before_commit) VALUES (1, 2)")
        try db.execute(
          sql: "INSERT INTO habit_entries (habit_id, day, status) VALUES (?, '2024-02-29', 'done')",
          arguments: [habit.id.storeText])
      }
    }
    #expect(try await store.entries(of: habit.id, for: user.id).isEmpty)
    try await database.writer.write { db in
      try db.execute(
        sql: "INSERT INTO habit_entries (habit_id, day, status) VALUES (?, '2024-03-01', 'skipped')",
        arguments: [habit.id.storeText])
    }
    let history = try #require(try await store.histories(for: user.id)[habit.id])
    #expect(history.firstDay == day("2024-03-01"))
    #expect(history.status(on: day("2024-03-01")) == .skipped)
    try database.close()
  }

  /// Days the property lands on: month ends, a leap day and its neighbours, years apart.
  static let anchors = ["2024-02-28", "2024-02-29", "2024-03-01", "2023-12-31", "2025-01-31", "2026-06-30", "2019-07-15"]
    .map { Day($0)! }

  static func run(_ codes: [Int]) async throws {
    let path = TestFiles.database("habit-months")
    let database = try AppDatabase.open(at: path)
    let store = SQLiteStore(database)
    // The account starts as a restore writes it.
    let restored = try Habit(id: UUID(), name: "Habit 0", createdDay: anchors[0])
    let snapshot = UserSnapshot(
      settings: UserSettings(timeZone: "UTC"),
      habits: [.init(habit: restored, entries: anchors.map { HabitEntry(day: $0, status: .done) })])
    let user = try await store.restore(snapshot, into: .newUser(id: UUID(), name: "ada"))
    var names = 0
    for code in codes {
      var rest = code
      func take(_ n: Int) -> Int {
        defer { rest /= n }
        return rest % n
      }
      let kind = take(8)
      let habits = try await store.habits(for: user.id, includingArchived: true)
      let habit = habits.isEmpty ? nil : habits[take(habits.count)]
      let first = anchors[take(anchors.count)].adding(days: take(5) - 2)
      let step = 1 + take(3)
      let days = (0...take(4)).map { first.adding(days: $0 * step) }
      switch kind {
      case 0:
        names += 1
        _ = try await store.createHabit(Habit(id: UUID(), name: "Habit \(names)", createdDay: first), for: user.id)
      case 1, 2:
        guard let habit else { continue }
        let mark: DayMark =
          switch take(4) {
          case 0: habit.measure == nil ? .done : .amount(Amount(thousandths: 1500))
          case 1: .skipped
          case 2: .noted
          default: .nothing
          }
        let note: String? = mark == .noted ? "a note" : (take(2) == 0 ? nil : "")
        try await store.setDays(days, of: habit.id, to: mark, note: note, for: user.id)
      case 3:
        names += 1
        let made = try Habit(id: UUID(), name: "Habit \(names)", createdDay: first)
        let entries = days.map { HabitEntry(day: $0, status: take(2) == 0 ? .done : .skipped) }
        var additions = HistoryAdditions(newHabits: [.init(habit: made, entries: entries)])
        if let habit, habit.measure == nil {
          additions.entries[habit.id] = days.map { HabitEntry(day: $0.adding(days: 40), status: .done) }
        }
        try await store.addHistory(additions, for: user.id)
      case 4:
        guard var habit else { continue }
        habit.measure = habit.measure == nil ? try Measure(unit: "km", target: Amount(thousandths: 1000)) : nil
        // Refused (and nothing changed) once the habit has days marked.
        _ = try? await store.updateHabit(habit, for: user.id)
      case 5:
        guard let habit, take(3) == 0 else { continue }
        try await store.deleteHabit(id: habit.id, for: user.id)
      case 6:
        // Another program writing rows: a replaced row fires no delete trigger.
        guard let habit, habit.measure == nil else { continue }
        let rows = days.map { ($0.description, ["done", "skipped", "noted"][take(3)]) }
        try await database.writer.write { db in
          for (day, status) in rows {
            try db.execute(
              sql: "INSERT OR REPLACE INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)",
              arguments: [habit.id.storeText, day, status, "sql"])
          }
        }
      default:
        guard let habit else { continue }
        try await database.writer.write { db in
          try db.execute(
            sql: "DELETE FROM habit_entries WHERE habit_id = ? AND day BETWEEN ? AND ?",
            arguments: [habit.id.storeText, days[0].description, days[days.count - 1].description])
        }
      }
    }
    let fromEntries = try await store.historiesFromEntries(for: user.id)
    let fromMonths = try await store.histories(for: user.id)
    #expect(fromMonths == fromEntries, "after \(codes)")
    try database.close()
  }
}
