import Logging
import NIOCore
import PostgresNIO
import Synchronization
import TallyStore

/// A fixed number of connections to one PostgreSQL database, all opened at start and kept
/// open: each has a keeper that opens it again when it closes, after a pause that doubles
/// (to a second) while the database refuses. A caller waits for a free connection, first
/// come first served, until its task is cancelled. A connection no one has used for a while
/// is asked a query now and then (``Check``): one that stays silent (a firewall or a NAT that
/// forgot it, a server machine gone without a word) is closed and opened again, rather than
/// found out by the next request that waits on it to its time limit; and the query keeps a
/// middlebox from forgetting a quiet connection in the first place.
///
/// Tally's own rather than postgres-nio's pool, which traps after an outage when it is told
/// to keep more than one connection open, and with one kept open starts a timer on every
/// lease that holds memory for a minute (docs/storage.md, "Connections").
final class KeptConnections: Sendable {
  struct Closed: Error, CustomStringConvertible {
    var description: String { "the connections were closed" }
  }

  private struct Waiter {
    let id: Int
    let continuation: CheckedContinuation<PostgresConnection, any Error>
  }

  /// How often a quiet connection is asked whether it still answers, and how long it has to.
  struct Check: Sendable {
    var every: Duration = .seconds(15)
    var within: Duration = .seconds(10)
  }

  private struct Free {
    let connection: PostgresConnection
    let since: ContinuousClock.Instant
  }

  private struct State {
    /// The last given back last, so that the ones a light load leaves alone are the ones checked.
    var free: [Free] = []
    var waiters: [Waiter] = []
    var nextWaiter = 0
    var closed = false

    /// A free connection that is still open, or nil.
    mutating func takeFree() -> PostgresConnection? {
      while let free = free.popLast() {
        if !free.connection.isClosed { return free.connection }
      }
      return nil
    }

    /// Takes `connection` if it has been free since `cutoff` or before.
    mutating func take(_ connection: PostgresConnection, freeSince cutoff: ContinuousClock.Instant) -> Bool {
      guard let index = free.firstIndex(where: { $0.connection === connection }), free[index].since <= cutoff else {
        return false
      }
      free.remove(at: index)
      return true
    }
  }

  let count: Int
  let check: Check
  private let configuration: PostgresConnection.Configuration
  private let logger: Logger
  private let state = Mutex(State())
  private let nextID = Atomic(0)

  init(count: Int, configuration: PostgresConnection.Configuration, check: Check = Check(), logger: Logger) {
    self.count = count
    self.configuration = configuration
    self.check = check
    self.logger = logger
  }

  /// Keeps every connection open until the task is cancelled, then closes them all and fails
  /// whoever still waits.
  func run() async {
    await withDiscardingTaskGroup { group in
      for _ in 0..<count {
        group.addTask { [self] in await keepOne() }
      }
    }
    // Each keeper closed its connection before it returned.
    let waiters = state.withLock { state in
      state.closed = true
      state.free = []
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.continuation.resume(throwing: Closed()) }
  }

  /// Runs `body` on a free connection, given back when it returns; one `body` closed (or the
  /// server did) is opened again by its keeper.
  func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
    let connection = try await take()
    defer { giveBack(connection) }
    return try await body(connection)
  }

  private func take() async throws -> PostgresConnection {
    // Most takes find a free connection: they make no continuation.
    let (free, id) = state.withLock { state -> (PostgresConnection?, Int) in
      if !state.closed, let connection = state.takeFree() { return (connection, 0) }
      defer { state.nextWaiter += 1 }
      return (nil, state.nextWaiter)
    }
    if let free { return free }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let outcome: Result<PostgresConnection, any Error>? = state.withLock { state in
          if state.closed { return .failure(Closed()) }
          // A cancel that came before the wait began found no waiter to resume.
          if Task.isCancelled { return .failure(CancellationError()) }
          if let connection = state.takeFree() { return .success(connection) }
          state.waiters.append(Waiter(id: id, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Hands `connection` to the longest waiter, or keeps it free; a closed one is left to its
  /// keeper.
  private func giveBack(_ connection: PostgresConnection) {
    let waiter = state.withLock { state -> Waiter? in
      if state.closed || connection.isClosed { return nil }
      if !state.waiters.isEmpty { return state.waiters.removeFirst() }
      state.free.append(Free(connection: connection, since: .now))
      return nil
    }
    waiter?.continuation.resume(returning: connection)
  }

  /// Opens one connection, lends it out, and opens it again each time it closes.
  private func keepOne() async {
    var pause = Duration.milliseconds(50)
    var failing = false
    while !Task.isCancelled {
      do {
        let connection = try await PostgresConnection.connect(
          on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
          id: nextID.wrappingAdd(1, ordering: .relaxed).newValue, logger: logger)
        if failing { logger.info("Connected to PostgreSQL again") }
        (pause, failing) = (.milliseconds(50), false)
        giveBack(connection)
        await withTaskCancellationHandler {
          await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await connection.closeFuture.get() }
            group.addTask { [self] in await keepChecking(connection, lent: false) }
            await group.next()
            group.cancelAll()
          }
        } onCancel: {
          connection.close().whenComplete { _ in }
        }
      } catch {
        if Task.isCancelled { return }
        if !failing { logger.warning("Could not connect to PostgreSQL, trying again: \(error)") }
        failing = true
        try? await Task.sleep(for: pause)
        pause = min(pause * 2, .seconds(1))
      }
    }
  }

  /// Until the task is cancelled or `connection` closes, asks it every ``Check/every`` whether
  /// it still answers (``answers(_:)``). A connection `lent` to the caller (the listener's,
  /// quiet between notifications) is asked each time; a free one only when it has stayed free
  /// a whole period, and no one can take it meanwhile: one in use shows by itself that it works.
  func keepChecking(_ connection: PostgresConnection, lent: Bool) async {
    while !Task.isCancelled && !connection.isClosed {
      try? await Task.sleep(for: check.every)
      if Task.isCancelled { return }
      if lent {
        guard await answers(connection) else { return }
      } else if state.withLock({ $0.take(connection, freeSince: .now - check.every) }) {
        guard await answers(connection) else { return }
        giveBack(connection)
      }
    }
  }

  /// Whether `connection` answers a query within ``Check/within``; one that does not is
  /// closed, so that its keeper opens another. Run on the connection's loop: an answer resumes
  /// it there at once and cancels the give-up, which an answer waiting for a thread of Swift's
  /// busy pool could let fire.
  func answers(_ connection: PostgresConnection) async -> Bool {
    await withTaskExecutorPreference(EventLoopExecutor.of(connection.eventLoop)) { [check, logger] in
      let givingUp = connection.eventLoop.scheduleTask(in: TimeAmount(check.within)) {
        connection.close().whenComplete { _ in }
      }
      defer { givingUp.cancel() }
      do {
        try connection.checkOpen()
        _ = try await connection.query("SELECT 1", logger: logger).collect()
        return true
      } catch {
        logger.warning("Closed a PostgreSQL connection that failed its check (an answer within \(check.within)): \(error)")
        try? await connection.close()
        return false
      }
    }
  }
}

extension PostgresConnection {
  /// Fails once the connection has closed. postgres-nio answers no statement written to a
  /// closed connection (the write finds no handler to take it), so its caller, and whoever
  /// waits for that caller, would wait for good (docs/server.md, "A write blackout after a
  /// restart"). Tally's statements run on the connection's event loop, so nothing closes it
  /// between this check and the write that follows.
  func checkOpen() throws(StoreError) {
    if isClosed { throw StoreError.storage("the connection to PostgreSQL has closed") }
  }

  /// `body` in one transaction, committed when it returns. Not postgres-nio's
  /// `withTransaction`: that writes its `COMMIT` and `ROLLBACK` unchecked, so a connection
  /// that closed during `body` would leave the caller waiting for good (``checkOpen()``).
  /// `BEGIN` and `COMMIT` go through ``run(_:)``, which checks; a closed connection takes no
  /// `ROLLBACK`, since the server has rolled back on its own.
  func openTransaction<T: Sendable>(
    _ body: (PostgresConnection) async throws -> sending T
  ) async throws -> sending T {
    do { try await run("BEGIN") } catch { throw TransactionFailure(step: .begin, cause: error) }
    let value: T
    do {
      value = try await body(self)
    } catch {
      if !isClosed {
        do { try await run("ROLLBACK") } catch {
          // A connection whose transaction is in doubt is not lent again.
          try? await close()
        }
      }
      throw TransactionFailure(step: .body, cause: error)
    }
    do { try await run("COMMIT") } catch { throw TransactionFailure(step: .commit, cause: error) }
    return value
  }
}

/// A transaction that did not commit: the step that failed, and why.
struct TransactionFailure: Error {
  enum Step { case begin, body, commit }
  let step: Step
  let cause: any Error
}
