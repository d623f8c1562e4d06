import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync
import Testing

@testable import TallySQLite

/// v11 moves a marked day's stamp and feed position into its `habit_entries` row: the feed a
/// device pulls holds the same entities in the same order, each day under the latest stamp
/// its fields carried, and the feed rows that stand for no day (a cleared day, a day of a
/// habit not complete here) stay where they were.
@Suite struct EntryStampsMigrationTests {
  static let user = UUID()
  static let read = UUID()
  /// A habit whose fields have not all arrived: its days wait in the feed.
  static let pending = UUID()
  static let device = UUID()

  static func stamp(_ ms: Int64) -> String {
    HybridStamp(milliseconds: 1_764_000_000_000 + ms, counter: 0, device: device).text
  }

  static func entry(_ habit: UUID, _ day: String) -> String { habit.storeText + "/" + day }

  func v10Database() throws -> String {
    try databaseAtVersion(10, user: Self.user) { db in
      let (user, read) = (Self.user.storeText, Self.read.storeText)
      try db.execute(
        sql: """
          INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, reminder, archived,
            sort_order, kind, unit, target, target_direction)
          VALUES (?, ?, 'Read', 'read', '#8B5CF6', '2026-01-01', 'daily', 'none', 0, 0, 'yesNo', NULL, NULL, NULL)
          """,
        arguments: [read, user])
      try db.execute(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note, amount) VALUES
            (?1, '2026-01-01', 'done', NULL, NULL), (?1, '2026-01-02', 'skipped', 'ill', NULL)
          """,
        arguments: [read])
      try db.execute(sql: "INSERT INTO sync_heads (user_id, position) VALUES (?, 5)", arguments: [user])
      let feed: [(String, String, String, String, Int)] = [
        ("habit", read, #"{"name":"Read"}"#, Self.stamp(1), 1),
        ("entry", Self.entry(Self.read, "2026-01-01"), #"{"amount":null,"note":null,"status":"done"}"#, Self.stamp(2), 2),
        // Set by three changes, as an older client's merge kept it: the day takes the latest.
        (
          "entry", Self.entry(Self.read, "2026-01-02"), #"{"amount":null,"note":"ill","status":"skipped"}"#,
          #"{"amount":"\#(Self.stamp(3))","note":"\#(Self.stamp(5))","status":"\#(Self.stamp(4))"}"#, 3
        ),
        ("entry", Self.entry(Self.read, "2026-01-03"), #"{"amount":null,"note":null,"status":null}"#, Self.stamp(6), 4),
        ("entry", Self.entry(Self.pending, "2026-01-01"), #"{"amount":null,"note":null,"status":"done"}"#, Self.stamp(7), 5),
      ]
      for (kind, id, fields, stamps, position) in feed {
        try db.execute(
          sql: """
            INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
            VALUES (?, ?, ?, ?, ?, NULL, ?)
            """,
          arguments: [user, kind, id, fields, stamps, position])
      }
    }
  }

  @Test func theFeedHoldsTheSameEntitiesInTheSameOrder() async throws {
    let database = try AppDatabase.open(at: try v10Database())
    let store = SQLiteStore(database)
    let page = try await store.syncChanges(for: Self.user, after: 0, limit: 100)
    #expect(page.changes.map(\.id) == [
      Self.read.storeText, Self.entry(Self.read, "2026-01-01"), Self.entry(Self.read, "2026-01-02"),
      Self.entry(Self.read, "2026-01-03"), Self.entry(Self.pending, "2026-01-01"),
    ])
    #expect(page.position == 5)
    let days = Dictionary(page.changes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let ill = try #require(days[Self.entry(Self.read, "2026-01-02")])
    #expect(ill.stamp.text == Self.stamp(5))
    #expect(ill.fields == ["status": .string("skipped"), "note": .string("ill"), "amount": .null])
    #expect(days[Self.entry(Self.read, "2026-01-01")]?.stamp.text == Self.stamp(2))
    #expect(days[Self.entry(Self.read, "2026-01-03")]?.fields["status"] == .null)

    let rows = try await database.writer.read { db in
      (
        try String.fetchAll(db, sql: "SELECT entity_id FROM sync_entities WHERE kind = 'entry' ORDER BY position"),
        try Row.fetchAll(db, sql: "SELECT day, stamp, position FROM habit_entries ORDER BY day")
      )
    }
    #expect(rows.0 == [Self.entry(Self.read, "2026-01-03"), Self.entry(Self.pending, "2026-01-01")])
    #expect(rows.1.map { $0["stamp"] as String } == [Self.stamp(2), Self.stamp(5)])
    #expect(rows.1.map { $0["position"] as Int64 } == [2, 3])
    #expect(
      try await store.entries(of: Self.read, for: Self.user) == [
        HabitEntry(day: day("2026-01-01"), status: .done),
        HabitEntry(day: day("2026-01-02"), status: .skipped, note: "ill"),
      ])
  }

  /// After the move, every day a write sets takes a new place at the feed's end: a day set to
  /// what it held too (SPEC 11, the latest act), and a cleared one; the others keep theirs.
  @Test func aWriteAfterTheMoveTakesNewPlacesForTheDaysItSets() async throws {
    let store = SQLiteStore(try AppDatabase.open(at: try v10Database()))
    try await store.setDay(day("2026-01-01"), of: Self.read, to: .done, note: nil, for: Self.user)
    #expect(try await store.syncChanges(for: Self.user, after: 5, limit: 100).changes.map(\.id) == [Self.entry(Self.read, "2026-01-01")])
    try await store.setDay(day("2026-01-02"), of: Self.read, to: .done, note: nil, for: Self.user)
    try await store.setDay(day("2026-01-01"), of: Self.read, to: .nothing, note: nil, for: Self.user)
    let later = try await store.syncChanges(for: Self.user, after: 5, limit: 100)
    #expect(later.changes.map(\.id) == [Self.entry(Self.read, "2026-01-02"), Self.entry(Self.read, "2026-01-01")])
    #expect(later.changes.map { $0.fields["status"] } == [.string("done"), .null])
    // The cleared day is one entity still: its old place is gone with its row.
    let all = try await store.syncChanges(for: Self.user, after: 0, limit: 100).changes.map(\.id)
    #expect(all.count == Set(all).count)
  }
}
