import Foundation
import PostgresNIO
import PropertyBased
import Synchronization
import TallyCore
import TallyPostgresTesting
import TallyStore
import TallySync
import TallyTestWaiting
import Testing

@testable import TallyPostgres

/// A store call runs on its connection's event loop (``EventLoopExecutor``): each answer resumes
/// the call on the thread that read it, and the next statement is written from there, rather
/// than every round trip handing the call to Swift's pool and back.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresEventLoopTests {
  @Test func readsAndWritesResumeOnTheirConnectionsLoop() async throws {
    let database = try await PostgresTesting.database()
    let read = try await database.withConnection { connection in
      try await connection.run("SELECT 1")
      return connection.eventLoop.inEventLoop
    }
    #expect(read)
    let written = try await database.transaction { connection in
      try await connection.run("SELECT 1")
      let first = connection.eventLoop.inEventLoop
      try await connection.run("SELECT 2")
      return first && connection.eventLoop.inEventLoop
    }
    #expect(written)
  }

  /// What a call awaits besides its statements (here a sleep) resumes on the loop too, and the
  /// caller goes on off it.
  @Test func theCallerIsNotLeftOnTheLoop() async throws {
    let database = try await PostgresTesting.database()
    let loop = try await database.withConnection { connection in
      try await Task.sleep(for: .milliseconds(1))
      #expect(connection.eventLoop.inEventLoop)
      return connection.eventLoop
    }
    #expect(!loop.inEventLoop)
  }
}

/// A mark locks the user and reads what it marks in one call (`tally_mark_days`), so what it
/// reads must be what the database holds once the lock is granted, not what it held when the
/// call started to wait.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresMarkTests {
  /// The habit is made by a write that holds the user's lock while the mark waits for it: a
  /// mark that read from before its wait would not find the habit.
  @Test func aMarkThatWaitsForTheUsersLockSeesWhatTheHolderCommitted() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 3)
    let store = PostgresStore(database)
    let ada = try await makeUser(store)
    let habit = UUID()
    let mark = try await database.transaction { connection in
      let holder = try await connection.values("SELECT pg_backend_pid()", as: Int32.self)[0]
      try await connection.run("SELECT head_stamp FROM tally_lock_user(\(ada.id))")
      try await connection.run(
        """
        INSERT INTO habits (id, user_id, name, name_key, color, created_day, frequency, reminder, archived, sort_order)
        VALUES (\(habit), \(ada.id), 'Read', 'read', '#7C3AED', '2026-01-01', 'daily', 'none', false, 0)
        """)
      let mark = Task { try await store.setDays([day("2026-02-01")], of: habit, to: .done, note: nil, for: ada.id) }
      try await Self.waitForSomeoneBlocked(by: holder, in: database)
      return mark
    }
    let marked = try await mark.value
    #expect(marked.map(\.day) == [day("2026-02-01")])
    #expect(try await store.entries(of: habit, for: ada.id).map(\.status) == [.done])
    let feed = try await store.syncChanges(for: ada.id, after: 0, limit: 100).changes
    #expect(feed.contains { $0.kind == .entry && $0.id == SyncID.entry(habit, day("2026-02-01")) })
  }

  /// A mark reads without the lock, then writes only if the user's head is where it read it
  /// (`tally_write_marks`). Here another write commits in between: it notes the day the mark
  /// then sets done, which keeps a day's note. The mark must answer, and put in the feed,
  /// the note that write left, not the day as it read it.
  @Test func aMarkOvertakenBetweenItsReadAndItsWriteMarksAgainUnderTheLock() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 3)
    let store = PostgresStore(database)
    let ada = try await makeUser(store)
    let habit = try await store.createHabit(makeHabit(), for: ada.id)
    let marked = day("2026-02-01")
    try await store.setDay(marked, of: habit.id, to: .skipped, for: ada.id)
    let mark = try await database.transaction { connection in
      let holder = try await connection.values("SELECT pg_backend_pid()", as: Int32.self)[0]
      try await connection.run("SELECT head_stamp FROM tally_lock_user(\(ada.id))")
      try await connection.run(
        "UPDATE habit_entries SET note = 'from elsewhere' WHERE habit_id = \(habit.id) AND day = \(marked.description)")
      try await connection.run("UPDATE sync_heads SET position = position + 1 WHERE user_id = \(ada.id)")
      let mark = Task { try await store.setDays([marked], of: habit.id, to: .done, note: nil, for: ada.id) }
      try await Self.waitForSomeoneBlocked(by: holder, in: database)
      return mark
    }
    let answered = try await mark.value
    #expect(answered.map(\.note) == ["from elsewhere"])
    #expect(try await store.entries(of: habit.id, for: ada.id).map(\.note) == ["from elsewhere"])
    let feed = try await store.syncChanges(for: ada.id, after: 0, limit: 100).changes
    let last = try #require(feed.last { $0.id == SyncID.entry(habit.id, marked) })
    #expect(last.fields["note"] == .string("from elsewhere"))
    #expect(last.fields["status"] == .string("done"))
  }

  /// Two instances mark two days of one user at once, each its marks one after another, so
  /// that each mark goes without the lock and the two overtake each other's reads; some set a
  /// note, some keep the day's. Whatever order they commit in, each day ends as its feed row
  /// says, which is what every replica copies.
  @Test func marksThroughTwoInstancesAtOnceLeaveEachDayAsItsFeedRowSays() async throws {
    let location = try PostgresTesting.freshLocation()
    let instances = [
      PostgresStore(try await PostgresTesting.open(location, connections: 3)),
      PostgresStore(try await PostgresTesting.open(location, connections: 3)),
    ]
    let ada = try await makeUser(instances[0])
    let habit = try await instances[0].createHabit(makeHabit(), for: ada.id)
    let days = [day("2026-04-01"), day("2026-04-02")]
    let plan = Gen.int(in: 0..<8).array(of: 16...16)
    await propertyCheck(count: 30, input: plan, plan) { first, second in
      do {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for (store, codes) in zip(instances, [first, second]) {
            group.addTask {
              for (index, code) in codes.enumerated() {
                // Bit 0: the day; bit 1: done or skipped; bit 2: a note of its own, or the day's kept.
                try await store.setDays(
                  [days[code % 2]], of: habit.id, to: code & 2 == 0 ? .done : .skipped,
                  note: code & 4 == 0 ? nil : "note \(index)", for: ada.id)
              }
            }
          }
          try await group.waitForAll()
        }
        let feed = try await instances[1].syncChanges(for: ada.id, after: 0, limit: 1000).changes
        for entry in try await instances[0].entries(of: habit.id, for: ada.id) {
          let row = feed.last { $0.id == SyncID.entry(habit.id, entry.day) }
          #expect(row?.fields == SyncFields.entry(status: entry.status, note: entry.note), "\(first), \(second)")
        }
      } catch {
        Issue.record("\(first), \(second): \(error)")
      }
    }
  }

  /// Returns once a query waits for a lock the backend `holder` holds.
  static func waitForSomeoneBlocked(by holder: Int32, in database: PostgresAppDatabase) async throws {
    try await eventually("the mark never waited for the user's lock", within: .seconds(30), every: .milliseconds(5)) {
      try await database.withConnection({ watcher in
        try await watcher.values(
          "SELECT count(*) FROM pg_stat_activity WHERE \(holder) = ANY(pg_blocking_pids(pid))", as: Int64.self)[0]
      }) != 0
    }
  }

  @Test func aMarkForNoOneOrAnotherUsersHabitIsNotFoundAndWritesNothing() async throws {
    let store = try await PostgresTesting.store()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let habit = try await store.createHabit(makeHabit(), for: ada.id)
    let heads = (try await store.revision(for: ada.id), try await store.revision(for: bob.id))
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.setDay(day("2026-03-01"), of: habit.id, to: .done, for: nobody)
    }
    await #expect(throws: StoreError.notFound(.habit(habit.id))) {
      try await store.setDay(day("2026-03-01"), of: habit.id, to: .done, for: bob.id)
    }
    #expect(try await store.entries(of: habit.id, for: ada.id).isEmpty)
    #expect(try await store.revision(for: ada.id) == heads.0)
    #expect(try await store.revision(for: bob.id) == heads.1)
  }
  /// A burst of one user's marks waits in the instance, two holding a connection, while
  /// another instance holds the user's lock: another user's write still finds one.
  @Test func aBurstOfOneUsersWritesLeavesConnectionsForOthers() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 4)
    let store = PostgresStore(database)
    let (ada, bob) = (try await makeUser(store), try await makeUser(store, "bob"))
    let (adaHabit, bobHabit) = (
      try await store.createHabit(makeHabit(), for: ada.id), try await store.createHabit(makeHabit(), for: bob.id)
    )
    let gate = WriteTurnsTests.Gate()
    let (holders, holderOut) = AsyncStream.makeStream(of: Int32.self)
    // Another instance's write: it takes no turn here.
    let holder = Task {
      try await database.transaction { connection in
        try await connection.run("SELECT head_stamp FROM tally_lock_user(\(ada.id))")
        holderOut.yield(try await connection.values("SELECT pg_backend_pid()", as: Int32.self)[0])
        await gate.wait()
      }
    }
    var iterator = holders.makeAsyncIterator()
    let holderPID = try #require(await iterator.next())
    // One after another, each once the one before is in line: marks that came together would
    // be taken into one transaction by the first turn, and not wait in line.
    var marks: [Task<Void, any Error>] = []
    for index in 1...5 {
      marks.append(Task { _ = try await store.setDay(day("2026-03-0\(index)"), of: adaHabit.id, to: .done, for: ada.id) })
      try await eventually("ada's mark \(index) never came to wait", within: .seconds(30), every: .milliseconds(5)) {
        database.writeTurns.inLine(for: ada.id) >= index
      }
    }
    try await eventually("ada's writes never all came to wait", within: .seconds(30), every: .milliseconds(5)) {
      try await database.withConnection({ watcher in
        try await watcher.values(
          "SELECT count(*) FROM pg_stat_activity WHERE \(holderPID) = ANY(pg_blocking_pids(pid))", as: Int64.self)[0]
      }) != 0 && database.writeTurns.inLine(for: ada.id) >= 5
    }
    try await store.setDay(day("2026-03-01"), of: bobHabit.id, to: .done, for: bob.id)
    gate.open()
    try await holder.value
    for mark in marks { _ = try await mark.value }
    #expect(try await store.entries(of: adaHabit.id, for: ada.id).count == 5)
    #expect(database.writeTurns.inLine(for: ada.id) == 0)
  }
}
