import Foundation
import PostgresNIO
import TallyCore
import TallyPostgresTesting
import TallyStore
import TallySync
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
      let deadline = ContinuousClock.now + .seconds(30)
      while try await database.withConnection({ watcher in
        try await watcher.values(
          "SELECT count(*) FROM pg_stat_activity WHERE \(holder) = ANY(pg_blocking_pids(pid))", as: Int64.self)[0]
      }) == 0 {
        try #require(ContinuousClock.now < deadline, "the mark never waited for the user's lock")
        try await Task.sleep(for: .milliseconds(5))
      }
      return mark
    }
    let marked = try await mark.value
    #expect(marked.map(\.day) == [day("2026-02-01")])
    #expect(try await store.entries(of: habit, for: ada.id).map(\.status) == [.done])
    let feed = try await store.syncChanges(for: ada.id, after: 0, limit: 100).changes
    #expect(feed.contains { $0.kind == .entry && $0.id == SyncID.entry(habit, day("2026-02-01")) })
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
}
