import Foundation
import GRDB
import TallyCore
import TallyStore
import Testing

@testable import TallySQLite

/// v15: weekday schedules and pauses, and the feed rebuilt to take the kind `pause`.
@Suite struct PausesFixtureTests {
  /// A v14 file opened by v15 keeps every feed row (the table is copied, not altered).
  @Test func theFeedKeepsEveryRowThroughV15() async throws {
    let path = try LaterFixtureTests.fixtures.copyOfFixture("v14")
    let before = try DatabaseQueue(path: path)
    let rows = try await before.read { db in try Row.fetchAll(db, sql: "SELECT * FROM sync_entities ORDER BY position") }
    try before.close()
    #expect(!rows.isEmpty)
    let database = try AppDatabase.open(at: path)
    let after = try await database.reader.read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM sync_entities ORDER BY position")
    }
    #expect(after == rows)
  }

  @Test func aV15DatabaseOpensWithItsWeekdaysAndPauses() async throws {
    let database = try AppDatabase.open(at: try LaterFixtureTests.fixtures.copyOfFixture("v15"))
    let store = SQLiteStore(database)
    try await FixtureV1.expectContents(of: store, others: [FixtureV12.eve, FixtureV15.flo])
    #expect(try await store.habits(for: FixtureV15.flo.id, includingArchived: true) == [FixtureV15.gym])
    #expect(try await store.pauses(for: FixtureV15.flo.id) == FixtureV15.pauses)
  }

  /// A habit's weekday bits that name no day, or all seven, are refused by the table.
  @Test func theTableRefusesWeekdaysThatAreNoSchedule() async throws {
    let database = try AppDatabase.open(at: try LaterFixtureTests.fixtures.copyOfFixture("v15"))
    for bits in [0, 127, 128] {
      await #expect(throws: DatabaseError.self) {
        try await database.writer.write { db in
          try db.execute(sql: "UPDATE habits SET weekdays = ? WHERE id = ?", arguments: [bits, FixtureV15.gym.id.storeText])
        }
      }
    }
  }
}

/// What the v15 fixture adds: flo, whose gym habit is on Monday, Wednesday and Friday, with a
/// pause of it and a vacation of every habit.
enum FixtureV15 {
  static let flo = try! User(
    id: UUID(uuidString: "0f000000-0000-4000-8000-000000000015")!, name: "flo",
    settings: UserSettings(timeZone: "Australia/Lord_Howe", firstWeekday: .monday))
  static let gym = try! Habit(
    id: UUID(uuidString: "15000000-0000-4000-8000-000000000001")!, name: "Gym", createdDay: Day("2026-01-05")!,
    frequency: .weekdays(try! WeekdaySet([.monday, .wednesday, .friday])))
  static let pauses = [
    try! Pause(
      id: UUID(uuidString: "15000000-0000-4000-8000-00000000000a")!, habitID: gym.id, from: Day("2026-01-12")!,
      until: Day("2026-01-18")!),
    try! Pause(id: UUID(uuidString: "15000000-0000-4000-8000-00000000000b")!, habitID: nil, from: Day("2026-02-01")!, until: nil),
  ]

  static func write(_ store: SQLiteStore) async throws {
    _ = try await store.createUser(flo)
    _ = try await store.createHabit(gym, for: flo.id)
    for pause in pauses { _ = try await store.savePause(pause, for: flo.id) }
    _ = try await store.setDay(Day("2026-01-05")!, of: gym.id, to: .done, for: flo.id)
  }
}
