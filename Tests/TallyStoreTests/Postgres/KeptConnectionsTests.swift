import Foundation
import PostgresNIO
import TallyStore
import TallyPostgresTesting
import TallyTestWaiting
import Testing

@testable import TallyPostgres

/// Tally's pool of connections (``KeptConnections``): every connection stays open, one the
/// server closes comes back with no one asking, one that goes silent is found out and opened
/// again, and a caller that stops waiting takes none with it.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)), .timeLimit(.minutes(1)))
struct KeptConnectionsTests {
  /// Connections named `application`, so that a test sees and ends only its own.
  private func configuration(application: String) throws -> PostgresConnection.Configuration {
    var configuration = try PostgresTesting.freshLocation().connectionConfiguration()
    configuration.options.additionalStartupParameters.append(("application_name", application))
    return configuration
  }

  /// The server processes of the connections named `application`, asked on a connection of
  /// its own; `terminating` ends them too.
  private func backends(_ application: String, terminating: Bool = false) async throws -> Set<Int32> {
    let connection = try await PostgresConnection.connect(
      configuration: try PostgresTesting.freshLocation().connectionConfiguration(), id: 0, logger: Logger(label: "test"))
    // In the select list, and in a CASE, the ending is run only when asked and only for the
    // rows the condition keeps.
    let query: PostgresQuery =
      """
      SELECT pid, CASE WHEN \(terminating) THEN pg_terminate_backend(pid) ELSE false END
      FROM pg_stat_activity WHERE application_name = \(application)
      """
    var pids = Set<Int32>()
    for try await (pid, _) in try await connection.query(query, logger: Logger(label: "test")).decode((Int32, Bool).self) {
      pids.insert(pid)
    }
    try await connection.close()
    return pids
  }

  /// Waits until `application` has `count` connections, none of them one of `gone`.
  private func waitUntil(_ application: String, has count: Int, none gone: Set<Int32> = []) async throws {
    try await eventually("\(application) did not get back to \(count) new connections") {
      let pids = try await backends(application)
      return pids.count == count && pids.isDisjoint(with: gone)
    }
  }

  /// A write on a closed channel reaches no handler, so postgres-nio would never answer it:
  /// a statement on a connection that has closed (the server ended it, or a caller's time ran
  /// out) must fail at once, or its caller, and whoever waits for that caller, waits for good.
  @Test func aStatementOnAClosedConnectionFailsAtOnce() async throws {
    let connection = try await PostgresConnection.connect(
      configuration: try configuration(application: "closed"), id: 0, logger: Logger(label: "test"))
    try await connection.close()
    await #expect(throws: (any Error).self) {
      try await connection.kept(PostgresKeptStatements.Announce(channel: "tally_test", payloads: ["closed"]))
    }
    await #expect(throws: (any Error).self) { try await connection.run("SELECT 1") }
  }

  /// The same for a transaction: a connection that closes inside it fails the transaction at
  /// once, at the statement that follows or at the `COMMIT`, naming the step.
  @Test(arguments: [TransactionFailure.Step.body, .commit])
  func aTransactionWhoseConnectionClosesFailsAtOnce(_ step: TransactionFailure.Step) async throws {
    let connection = try await PostgresConnection.connect(
      configuration: try configuration(application: "closed-in-transaction"), id: 0, logger: Logger(label: "test"))
    await #expect {
      try await connection.openTransaction { connection in
        try await connection.run("CREATE TEMPORARY TABLE t (n int)")
        try await connection.close()
        if step == .body { try await connection.run("INSERT INTO t VALUES (1)") }
      }
    } throws: { error in
      (error as? TransactionFailure)?.step == step
    }
  }

  /// A body that fails rolls back, and the connection stays open and usable.
  @Test func aFailedBodyRollsBackAndTheConnectionGoesOn() async throws {
    let connection = try await PostgresConnection.connect(
      configuration: try configuration(application: "rolled-back"), id: 0, logger: Logger(label: "test"))
    try await connection.run("CREATE TEMPORARY TABLE t (n int)")
    struct Refused: Error {}
    await #expect(throws: TransactionFailure.self) {
      try await connection.openTransaction { connection in
        try await connection.run("INSERT INTO t VALUES (1)")
        throw Refused()
      }
    }
    #expect(!connection.isClosed)
    let count = try await connection.openTransaction { connection in
      try await connection.run("INSERT INTO t VALUES (2)")
      return try await connection.values("SELECT count(*)::int FROM t", as: Int.self)
    }
    #expect(count == [1])
    try await connection.close()
  }

  @Test func connectionsTheServerEndsAreOpenedAgainWithNoOneAsking() async throws {
    let application = "kept-\(UUID().uuidString.prefix(8))"
    let pool = KeptConnections(count: 3, configuration: try configuration(application: application), logger: Logger(label: "test"))
    let running = Task { await pool.run() }
    defer { running.cancel() }
    try await waitUntil(application, has: 3)
    let ended = try await backends(application, terminating: true)
    #expect(ended.count == 3)
    // A terminated process may still be listed for a moment after.
    try await waitUntil(application, has: 3, none: ended)
    let answer = try await pool.withConnection { connection in
      try await connection.query("SELECT 41 + 1", logger: Logger(label: "test")).collect().first?.decode(Int.self)
    }
    #expect(answer == 42)
  }

  /// Checks quick enough for a test, and patient enough that a connection that answers, on
  /// cores busy with other tests, is not given up.
  private let quickCheck = KeptConnections.Check(every: .milliseconds(300), within: .seconds(2))

  /// Waits until `application` has a connection that is not one of `old`: its process.
  private func newBackend(_ application: String, besides old: Set<Int32>) async throws -> Int32 {
    var pid: Int32?
    try await eventually("\(application) opened no new connection") {
      pid = try await backends(application).subtracting(old).first
      return pid != nil
    }
    return pid!
  }

  /// A stopped server process keeps its socket open and answers nothing, as a connection a
  /// firewall forgot does; it goes on once the test ends, finds its connection closed, and exits.
  private func silenced<T>(_ pid: Int32, _ body: () async throws -> T) async throws -> T {
    try #require(kill(pid, SIGSTOP) == 0)
    defer { kill(pid, SIGCONT) }
    return try await body()
  }

  /// `body` with a running pool of one connection, checked quickly, named `name` and more, and
  /// the connection's server process.
  private func withOneQuicklyChecked(
    _ name: String, _ body: (KeptConnections, _ application: String, _ backend: Int32) async throws -> Void
  ) async throws {
    let application = "\(name)-\(UUID().uuidString.prefix(8))"
    let pool = KeptConnections(
      count: 1, configuration: try configuration(application: application), check: quickCheck,
      logger: Logger(label: "test"))
    let running = Task { await pool.run() }
    defer { running.cancel() }
    try await body(pool, application, try await newBackend(application, besides: []))
  }

  @Test func aFreeConnectionThatGoesSilentIsClosedAndOpenedAgain() async throws {
    try await withOneQuicklyChecked("kept-silent") { pool, application, silent in
      try await silenced(silent) {
        _ = try await newBackend(application, besides: [silent])
        // Handed out, the new connection answers; the silent one would keep this caller waiting.
        let answer = try await pool.withConnection { connection in
          try await connection.query("SELECT 41 + 1", logger: Logger(label: "test")).collect().first?.decode(Int.self)
        }
        #expect(answer == 42)
      }
    }
  }

  /// The listener's connection is lent for good and quiet between notifications: it is asked
  /// too, so that an instance whose listener went silent stops trusting the heads it keeps and
  /// listens again, rather than miss every other instance's commits until TCP gives up.
  @Test func aListenerThatGoesSilentListensAgain() async throws {
    try await withOneQuicklyChecked("kept-listener") { pool, application, silent in
      let heads = FeedHeads(tracking: false)
      let listening = Task {
        await PostgresFeedAnnouncements.listen(
          pool: pool, heads: heads, signIns: SignInCache(tracking: false),
          announcements: CommitAnnouncements(schema: "tally"), logger: Logger(label: "test"))
      }
      defer { listening.cancel() }
      try await eventually("the listener did not listen") { heads.isTracking }
      let ada = UUID()
      try await silenced(silent) {
        try await eventually("the silent listener was not found out") { !heads.isTracking }
        _ = try await newBackend(application, besides: [silent])
        try await eventually("the listener did not listen") { heads.isTracking }
        let announcer = try await PostgresConnection.connect(
          configuration: try configuration(application: "kept-announcer"), id: 0, logger: Logger(label: "test"))
        // Said again until heard: one said while the listener starts over is heard by no one.
        try await eventually("the listener did not hear again") {
          try await PostgresFeedAnnouncements.send([PostgresFeedAnnouncements.payload(ada, 7)], on: announcer)
          return heads.head(of: ada) == 7
        }
        try await announcer.close()
      }
    }
  }

  /// The one connection is lent; a second caller waits and is cancelled. The connection, given
  /// back, goes to the next caller: had it been handed to the one that left, it would be lost.
  @Test func aCallerThatStopsWaitingTakesNoConnectionWithIt() async throws {
    let pool = KeptConnections(
      count: 1, configuration: try configuration(application: "kept-wait"), logger: Logger(label: "test"))
    let running = Task { await pool.run() }
    defer { running.cancel() }
    let (lent, lending) = AsyncStream.makeStream(of: Void.self)
    let (giveBack, givingBack) = AsyncStream.makeStream(of: Void.self)
    let holder = Task {
      try await pool.withConnection { _ in
        lending.yield()
        for await _ in giveBack { break }
      }
    }
    for await _ in lent { break }
    let waiter = Task { try await pool.withConnection { _ in true } }
    try await Task.sleep(for: .milliseconds(100))
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    givingBack.yield()
    try await holder.value
    #expect(try await pool.withConnection { _ in true })
  }

  @Test func closingFailsWhoeverWaits() async throws {
    let pool = KeptConnections(
      count: 1, configuration: try configuration(application: "kept-close"), logger: Logger(label: "test"))
    let running = Task { await pool.run() }
    let (lent, lending) = AsyncStream.makeStream(of: Void.self)
    let holder = Task {
      try await pool.withConnection { _ in
        lending.yield()
        try await Task.sleep(for: .seconds(60))
      }
    }
    for await _ in lent { break }
    let waiter = Task { try await pool.withConnection { _ in true } }
    try await Task.sleep(for: .milliseconds(100))
    running.cancel()
    await #expect(throws: KeptConnections.Closed.self) { try await waiter.value }
    holder.cancel()
  }
}
