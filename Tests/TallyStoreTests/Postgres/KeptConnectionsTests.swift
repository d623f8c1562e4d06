import Foundation
import PostgresNIO
import TallyPostgresTesting
import Testing

@testable import TallyPostgres

/// Tally's pool of connections (``KeptConnections``): every connection stays open, one the
/// server closes comes back with no one asking, and a caller that stops waiting takes none
/// with it.
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
    let deadline = ContinuousClock.now + .seconds(20)
    while true {
      let pids = try await backends(application)
      if pids.count == count && pids.isDisjoint(with: gone) { return }
      try #require(ContinuousClock.now < deadline, "\(application) did not get back to \(count) new connections")
      try await Task.sleep(for: .milliseconds(50))
    }
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
