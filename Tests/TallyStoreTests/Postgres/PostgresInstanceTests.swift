import Foundation
import PostgresNIO
import TallyCore
import TallyPostgresTesting
import TallyStore
import TallySync
import TallyTestWaiting
import Testing

@testable import TallyPostgres

/// What several `tally serve` instances on one PostgreSQL database rely on: each instance is
/// its own pool (its own ``PostgresAppDatabase``) on the same schema.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresInstanceTests {
  static func instances(_ count: Int) async throws -> [PostgresStore] {
    let location = try PostgresTesting.freshLocation()
    // Started together: the advisory lock makes them take turns, and all but one find the
    // schema made (without it, the second would fail on a table that already exists).
    return try await withThrowingTaskGroup(of: PostgresStore.self) { group in
      for _ in 0..<count {
        group.addTask { PostgresStore(try await PostgresTesting.open(location, connections: 3)) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
  }

  @Test func instancesStartingTogetherMigrateOnceAndShareEverything() async throws {
    let stores = try await Self.instances(4)
    let ada = try await makeUser(stores[0])
    for store in stores { #expect(try await store.user(id: ada.id) == ada) }
  }

  /// A write through one instance moves the user's exact revision read through another at
  /// once, and reaches a stream waiting there by PostgreSQL's announcement; another user's
  /// revision stays where it was.
  @Test(.timeLimit(.minutes(1)))
  func aWriteThroughOneInstanceMovesTheRevisionAnotherReadsAndWakesItsStreams() async throws {
    let stores = try await Self.instances(2)
    let ada = try await makeUser(stores[0])
    let bob = try await makeUser(stores[0], "bob")
    try await Self.untilAcquainted(stores)
    let subscription = try #require(stores[1].feedHeads.subscribe(ada.id, limits: .init(perUser: 1, total: 1)))
    defer { subscription.stop() }
    var heard = subscription.moves.makeAsyncIterator()
    let bobs = try await stores[1].revision(for: bob.id)
    for round in 0..<5 {
      let before = try await stores[1].revision(for: ada.id)
      let habit = try await stores[round % 2].createHabit(makeHabit("Habit \(round)"), for: ada.id)
      let after = try await stores[1].revision(for: ada.id)
      #expect(after != before)
      #expect(try await stores[(round + 1) % 2].habit(id: habit.id, for: ada.id) == habit)
      // Announced or (the writer was this instance) reported as it committed.
      while let moved = await heard.next() {
        if let moved, moved >= after.head { break }
      }
      #expect(try await stores[1].heardHead(for: ada.id) == after.head)
    }
    #expect(try await stores[1].revision(for: bob.id) == bobs)
  }

  /// An instance alone announces nothing. One that starts says hello: the others forget the
  /// heads they keep (the newcomer may have stopped last time between a commit and its
  /// announcement) and read them again, and from then on each announces its commits to the
  /// other.
  @Test(.timeLimit(.minutes(1)))
  func instancesLearnOfEachOtherAndOnlyThenAnnounce() async throws {
    let location = try PostgresTesting.freshLocation()
    let first = PostgresStore(try await PostgresTesting.open(location, connections: 3))
    let ada = try await makeUser(first)
    try await untilListening(first)
    _ = try await first.createHabit(makeHabit("Read"), for: ada.id)
    #expect(!first.database.announcements.hearsOthers)
    let head = try await first.revision(for: ada.id).head
    let epoch = first.feedHeads.epoch
    let second = PostgresStore(try await PostgresTesting.open(location, connections: 3))
    try await Self.untilAcquainted([first, second])
    #expect(first.feedHeads.epoch != epoch)
    #expect(try await first.heardHead(for: ada.id) == head)
    let subscription = try #require(second.feedHeads.subscribe(ada.id, limits: .init(perUser: 1, total: 1)))
    defer { subscription.stop() }
    var heard = subscription.moves.makeAsyncIterator()
    _ = try await first.createHabit(makeHabit("Walk"), for: ada.id)
    let moved = try await first.revision(for: ada.id).head
    while let next = await heard.next(), next != moved {}
    #expect(second.feedHeads.head(of: ada.id) == moved)
  }

  /// A newcomer announces its commits before any answer to its hello reaches it: an instance
  /// that heard the hello forgot its heads and may read one again before the newcomer's commit,
  /// and without the announcement it would keep that head until the user's next write.
  @Test(.timeLimit(.minutes(1)))
  func aNewcomerAnnouncesBeforeItHearsAnAnswer() async throws {
    let location = try PostgresTesting.freshLocation()
    // Listens as an instance would, without saying hello.
    let connections = KeptConnections(
      count: 1, configuration: try location.connectionConfiguration(), logger: Logger(label: "listener"))
    let running = Task { await connections.run() }
    defer { running.cancel() }
    let (payloads, heard) = AsyncStream.makeStream(of: String.self)
    let listener = Task {
      try await connections.withConnection { connection in
        try await connection.listen(on: PostgresFeedAnnouncements.channel) { notifications in
          heard.yield("listening")
          for try await notification in notifications { heard.yield(notification.payload) }
        }
      }
    }
    defer { listener.cancel() }
    var heardNext = payloads.makeAsyncIterator()
    #expect(await heardNext.next() == "listening")
    let store = PostgresStore(try await PostgresTesting.open(location))
    let ada = try await makeUser(store)
    _ = try await store.createHabit(makeHabit("Read"), for: ada.id)
    let head = try await store.revision(for: ada.id).head
    #expect(!store.database.announcements.hearsOthers)
    while let payload = await heardNext.next(), payload != PostgresFeedAnnouncements.payload(ada.id, head) {}
  }

  /// Alone, an instance stops announcing once a hello has gone unanswered for its grace, and
  /// starts again when it hears another.
  @Test func aLoneInstanceStopsAnnouncingAGraceAfterItsHello() async throws {
    let (waiting, alone) = (
      CommitAnnouncements(schema: "tally", grace: .seconds(3_600)), CommitAnnouncements(schema: "tally", grace: .milliseconds(20))
    )
    #expect(waiting.announces && alone.announces)
    waiting.greet()
    alone.greet()
    try await Task.sleep(for: .milliseconds(40))
    #expect(waiting.announces)
    #expect(!alone.announces)
    #expect(alone.hearOtherInstance())
    #expect(alone.announces)
  }

  /// Writes that commit together through one instance are announced together
  /// (``SentTogether``): every user's last head still reaches the other instance, none lost in
  /// a batch and none left behind by an earlier one.
  @Test(.timeLimit(.minutes(1)))
  func manyUsersWritingAtOnceThroughOneInstanceAreAllHeardByTheOther() async throws {
    let stores = try await Self.instances(2)
    var users: [User] = []
    for index in 0..<12 { users.append(try await makeUser(stores[0], "walker\(index)")) }
    try await Self.untilAcquainted(stores)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for user in users {
        for round in 0..<3 {
          group.addTask { _ = try await stores[0].createHabit(makeHabit("Walk \(round)"), for: user.id) }
        }
      }
      try await group.waitForAll()
    }
    var heads: [UUID: Int64] = [:]
    for user in users { heads[user.id] = try await stores[0].revision(for: user.id).head }
    try await until { users.allSatisfy { stores[1].feedHeads.head(of: $0.id) == heads[$0.id] } }
  }

  /// Waits until each of `stores` has heard of another: then each announces its commits.
  static func untilAcquainted(_ stores: [PostgresStore]) async throws {
    try? await eventually(within: .seconds(5), every: .milliseconds(10)) {
      stores.allSatisfy { $0.database.announcements.hearsOthers && $0.feedHeads.isTracking }
    }
    #expect(stores.allSatisfy { $0.database.announcements.hearsOthers })
  }

  /// The listener connects in the background; a test that waits for announcements starts
  /// once it hears.
  func untilListening(_ store: PostgresStore) async throws {
    try? await eventually(within: .seconds(5), every: .milliseconds(10)) { store.feedHeads.isTracking }
    #expect(store.feedHeads.isTracking)
  }

  /// The merge runs on a blocking thread, whose tasks inherit no task-local: the heads it
  /// moves must still reach the transaction's collector, so this instance knows them when it
  /// answers the push, not only when PostgreSQL's announcement comes back (a pull right after
  /// the push found nothing new; the convergence loops caught it under load).
  @Test func aMergeRecordsTheHeadsItMovesInItsTransaction() async throws {
    let database = try await PostgresTesting.database()
    let store = PostgresStore(database)
    let ada = try await makeUser(store)
    let stamp = HybridStamp(milliseconds: 1_772_971_200_000, counter: 0, device: UUID())
    let pending = PendingChanges()
    _ = try await database.withConnection { connection in
      try await PendingChanges.$current.withValue(pending) {
        try await PostgresSyncStorage.merge(
          [SyncChange(kind: .journal, id: "2026-03-01", stamp: stamp, fields: ["text": .string("hi")])],
          connection, user: ada.id, strict: true, now: instant("2026-03-08T12:00:00Z"))
      }
    }
    let head = try await store.syncHead(for: ada.id)
    #expect(head > 0)
    #expect(pending.take().heads == [ada.id: head])
  }

  @Test func rulesAcrossUsersHoldWhenInstancesRace() async throws {
    let stores = try await Self.instances(2)
    let now = instant("2026-03-08T12:00:00Z")
    let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 0..<8 {
        group.addTask {
          let user = try User(id: UUID(), name: "ada", settings: berlin)
          let credential = try PasswordCredential(
            userID: user.id, passwordHash: "$2b$04$" + String(repeating: "a", count: 53), role: .owner, updatedAt: now)
          do {
            _ = try await stores[index % 2].createAccount(user, credential: credential)
            return true
          } catch let error as StoreError {
            guard case .conflict = error else { throw error }
            return false
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.filter { $0 }.count == 1)
    #expect(try await stores[1].users().map(\.name) == ["ada"])
    #expect(try await stores[0].ownerID() != nil)
  }

  @Test func oneUsersWritesThroughTwoInstancesMakeOneGaplessFeed() async throws {
    let stores = try await Self.instances(2)
    let ada = try await makeUser(stores[0])
    let habit = try await stores[0].createHabit(makeHabit(), for: ada.id)
    let days = (1...28).map { day(String(format: "2026-02-%02d", $0)) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, day) in days.enumerated() {
        group.addTask { try await stores[index % 2].setDay(day, of: habit.id, to: .done, for: ada.id) }
      }
      try await group.waitForAll()
    }
    var position: Int64 = 0
    var entries: Set<String> = []
    var pages = 0
    while true {
      let page = try await stores[pages % 2].syncChanges(for: ada.id, after: position, limit: 5)
      for change in page.changes where change.kind == .entry { entries.insert(change.id) }
      position = page.position
      pages += 1
      if !page.more { break }
    }
    #expect(entries.count == days.count)
    // Settings, the habit and one position per entry: no position given twice or skipped.
    #expect(position == Int64(2 + days.count))
  }

  /// Guesses spread over instances meet one limit: attempts through A count at B, and a
  /// crowd of claims through four instances at once counts exactly the limit.
  /// The test cluster's socket (`.ci/postgres-start` puts it in the cluster's folder).
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_DIR"] != nil))
  func aStoreWorksThroughTheServersUnixSocket() async throws {
    let tcp = try PostgresTesting.freshLocation()
    let directory = try #require(ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_DIR"])
    let location = try PostgresLocation(
      url: "postgres://\(tcp.username)@:\(tcp.port)/\(tcp.database)?host=\(directory)&search_path=\(tcp.schema!)")
    let database = try await PostgresTesting.open(location)
    // A connection through a Unix socket has no client address.
    #expect(try await database.withConnection { connection in
      try await connection.values("SELECT client_addr IS NULL FROM pg_stat_activity WHERE pid = pg_backend_pid()", as: Bool.self)
    } == [true])
    let store = PostgresStore(database)
    let ada = try await makeUser(store)
    let habit = try await store.createHabit(makeHabit(), for: ada.id)
    try await store.setDay(day("2026-02-01"), of: habit.id, to: .done, for: ada.id)
    let overTCP = PostgresStore(try await PostgresTesting.open(tcp))
    #expect(try await overTCP.entries(of: habit.id, for: ada.id).map(\.day) == [day("2026-02-01")])
  }

  @Test func signInAttemptsAreCountedOnceForAllInstances() async throws {
    let stores = try await Self.instances(4)
    let now = instant("2026-03-08T12:00:00Z")
    for index in 0..<5 {
      let claim = try await stores[index % 2].claimSignInAttempt("ada", at: now, limit: 5, window: 900)
      guard case .counted = claim else {
        Issue.record("attempt \(index + 1) was refused")
        return
      }
    }
    for store in stores {
      #expect(try await store.claimSignInAttempt("ada", at: now, limit: 5, window: 900) == .refused(until: now + 900))
    }
    let claims = try await withThrowingTaskGroup(of: SignInClaim.self) { group in
      for index in 0..<32 {
        group.addTask { try await stores[index % 4].claimSignInAttempt("bob", at: now, limit: 5, window: 900) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(claims.filter { if case .counted = $0 { true } else { false } }.count == 5)
    #expect(claims.filter { $0 == .refused(until: now + 900) }.count == 27)
    #expect(try await signInRows(stores[3]) == 10)
  }
}

/// Needs no database: refusing what is not a PostgreSQL URL, and a server that does not answer.
@Suite struct PostgresLocationTests {
  @Test func aURLIsReadWithItsPartsAndItsPasswordNeverShown() throws {
    let location = try PostgresLocation(url: "postgres://tally:s%40cret@db.example:6543/habits?sslmode=require")
    #expect(location.host == "db.example")
    #expect(location.port == 6543)
    #expect(location.username == "tally")
    #expect(location.password == "s@cret")
    #expect(location.database == "habits")
    #expect(location.sslMode == "require")
    #expect(!location.description.contains("cret"))
  }

  /// A server on the same machine through its Unix socket, named as libpq names it.
  @Test func aURLMayNameTheDirectoryOfTheServersSocket() throws {
    let byParameter = try PostgresLocation(url: "postgres://tally:s%40cret@/habits?host=/run/postgresql")
    #expect(byParameter.host == "/run/postgresql")
    #expect(byParameter.socketPath == "/run/postgresql/.s.PGSQL.5432")
    #expect(byParameter.description == "postgres://tally@/habits?host=/run/postgresql")
    let byHost = try PostgresLocation(url: "postgres://tally@%2Fvar%2Frun%2Fpostgresql:5433/habits?search_path=s1")
    #expect(byHost.socketPath == "/var/run/postgresql/.s.PGSQL.5433")
    #expect(byHost.description == "postgres://tally@:5433/habits?host=/var/run/postgresql&search_path=s1")
    #expect(try PostgresLocation(url: "postgres://tally@db.example/habits").socketPath == nil)
  }

  @Test(arguments: [
    "mysql://db/tally", "postgres://", "postgres://db/tally?sslmode=sometimes", "postgres://db/tally?pool=3",
    "postgres://db/tally?search_path=a;drop", "postgres://tally@/habits?host=run/postgresql",
    "postgres://tally@/habits?host=",
  ])
  func whatIsNotAUsableURLIsRefusedByName(_ text: String) {
    #expect(throws: StoreError.self) { try PostgresLocation(url: text) }
  }

  /// Every connection of the pool runs a query that does not answer (a sleep here; a
  /// connection a firewall dropped, in life): once their time limit passes, their connections
  /// are closed and the next call gets a new one, not a wait until the queries end.
  @Test(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
  func queriesGivenUpOnGiveBackTheirConnections() async throws {
    let database = try await PostgresAppDatabase.open(
      try PostgresTesting.freshLocation(), connections: 2, timeout: .seconds(2))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          await #expect(throws: StoreError.self) {
            try await database.withConnection { connection in try await connection.run("SELECT pg_sleep(120)") }
          }
        }
      }
      try await group.waitForAll()
    }
    try await eventually(
      "no connection came back from the queries given up on", within: .seconds(30), every: .milliseconds(100)
    ) {
      (try? await database.withConnection { connection in try await connection.run("SELECT 1") }) != nil
    }
    database.close()
  }

  @Test func aDatabaseThatDoesNotAnswerIsAStorageErrorNotAHang() async throws {
    // Port 1 on loopback: nothing listens there. The pool would retry for ever; the time
    // limit ends the wait.
    let location = try PostgresLocation(url: "postgres://tally@127.0.0.1:1/tally?sslmode=disable")
    let error = await #expect(throws: StoreError.self) {
      try await PostgresAppDatabase.open(location, timeout: .seconds(2)).close()
    }
    #expect(error?.description.contains("127.0.0.1:1") == true)
  }
}
