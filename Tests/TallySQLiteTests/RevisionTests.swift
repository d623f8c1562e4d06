import Foundation
import TallyCore
import TallySQLite
import TallyStore
import TallyTestFiles
import Testing

@Suite struct RevisionTests {
  /// The server keeps answers until the revision moves, so a `tally mark` run beside it (a
  /// second connection to the same file) must move it too.
  @Test func anotherConnectionsCommitMovesTheRevision() async throws {
    let path = TestFiles.database("revision")
    let server = SQLiteStore(try AppDatabase.open(at: path))
    let user = try await server.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    let start = try await server.revision()
    #expect(try await server.revision() == start)

    let other = SQLiteStore(try AppDatabase.open(at: path))
    _ = try await other.createHabit(Habit(id: UUID(), name: "Read", createdDay: Day("2026-03-01")!), for: user.id)
    let afterOther = try await server.revision()
    #expect(afterOther != start)

    _ = try await server.createHabit(Habit(id: UUID(), name: "Run", createdDay: Day("2026-03-01")!), for: user.id)
    #expect(try await server.revision() != afterOther)
  }

  @Test func readsAloneLeaveItWhereItWas() async throws {
    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    let start = try await store.revision()
    _ = try await store.habits(for: user.id, includingArchived: true)
    _ = try await store.users()
    #expect(try await store.revision() == start)
    try await store.setJournalEntry(JournalEntry(day: Day("2026-03-01")!, text: "hi"), for: user.id)
    #expect(try await store.revision() != start)
  }
}
