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
    let start = try await server.revision(for: user.id)
    #expect(try await server.revision(for: user.id) == start)

    let other = SQLiteStore(try AppDatabase.open(at: path))
    _ = try await other.createHabit(Habit(id: UUID(), name: "Read", createdDay: Day("2026-03-01")!), for: user.id)
    let afterOther = try await server.revision(for: user.id)
    #expect(afterOther != start)

    _ = try await server.createHabit(Habit(id: UUID(), name: "Run", createdDay: Day("2026-03-01")!), for: user.id)
    #expect(try await server.revision(for: user.id) != afterOther)
  }

  /// A live stream waits on the server's heads: a `tally mark` beside it names no user, so
  /// catching up reads the watched users' heads again and wakes the stream of the one that moved.
  @Test(.timeLimit(.minutes(1))) func anotherConnectionsCommitWakesTheStreamOfItsUser() async throws {
    let path = TestFiles.database("revision-stream")
    let server = SQLiteStore(try AppDatabase.open(at: path))
    let ada = try await server.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    let bob = try await server.createUser(User(id: UUID(), name: "bob", settings: UserSettings(timeZone: "UTC")))
    let bobs = try await server.revision(for: bob.id)
    let subscription = try #require(server.feedHeads.subscribe(ada.id, limits: .init(perUser: 1, total: 1)))
    defer { subscription.stop() }
    let other = SQLiteStore(try AppDatabase.open(at: path))
    _ = try await other.createHabit(Habit(id: UUID(), name: "Read", createdDay: Day("2026-03-01")!), for: ada.id)
    let head = try await other.syncHead(for: ada.id)
    try await server.catchUp()
    var heard = subscription.moves.makeAsyncIterator()
    var last: Int64 = 0
    while let moved = await heard.next() {
      if let moved { last = moved }
      if last >= head { break }
    }
    #expect(last == head)
    #expect(try await server.revision(for: bob.id) == bobs)
  }

  @Test func readsAloneLeaveItWhereItWas() async throws {
    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    let start = try await store.revision(for: user.id)
    _ = try await store.habits(for: user.id, includingArchived: true)
    _ = try await store.users()
    #expect(try await store.revision(for: user.id) == start)
    try await store.setJournalEntry(JournalEntry(day: Day("2026-03-01")!, text: "hi"), for: user.id)
    #expect(try await store.revision(for: user.id) != start)
  }
}
