import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TallyStore

/// The one owner of a connection pool to a Tally database on PostgreSQL: starts the pool,
/// brings the schema up to date, and runs every read and write with a time limit, so a
/// database that is down or restarting gives ``StoreError/storage(_:)`` (a 503 from the
/// server) rather than a request that hangs. Connections reopen by themselves (``KeptConnections``).
public final class PostgresAppDatabase: Sendable {
  public let location: PostgresLocation
  let pool: KeptConnections
  let logger: Logger
  /// How long one read or write may wait for the database, a connection included.
  let timeout: Duration
  /// Set when the database did not answer, cleared by the next answer: meanwhile requests
  /// wait a tenth of ``timeout`` (one second by default), so an outage gives quick 503s
  /// rather than a queue.
  private let unreachable = Mutex(false)
  private let runner: Task<Void, Never>
  /// Each user's feed head as this instance knows it; kept only while ``listener`` hears.
  public let heads: FeedHeads
  /// Who requests come from; kept only while ``listener`` hears.
  let signIns: SignInCache
  /// A user's writes through this instance take turns, two at a time.
  let writeTurns = WriteTurns()
  /// A user's writes that may be made in one transaction, waiting for a turn.
  let together = WritesTogether()
  /// Revision checks that come together are read together.
  let headReads = Gathered<UUID, Int64>(missing: 0)
  /// This instance's commits, told to the others.
  let announcements: CommitAnnouncements
  private let listener: Task<Void, Never>
  /// For queries: the store reports its own errors, so the driver's per-query logs stay off.
  static let quiet: Logger = {
    var logger = Logger(label: "tally.postgres.query")
    logger.logLevel = .critical
    return logger
  }()

  /// The schema versions this program knows, oldest first (`v1`, …): PostgreSQL's own.
  public static var schemaVersions: [String] { PostgresMigrations.all.map(\.identifier) }

  /// The pool's size unless one is given: about what a small database machine keeps busy
  /// (docs/server.md, "How many connections").
  public static let defaultConnections = 10

  /// Connects to `location` and migrates its schema (``PostgresMigrations``). Throws
  /// ``StoreError/newerSchema(path:version:known:)`` for a schema a newer Tally wrote and
  /// ``StoreError/migrationFailed(path:version:target:reason:)`` when a migration fails;
  /// either way nothing was changed.
  /// `connections` bounds the pool: each instance holds at most that many.
  public static func open(
    _ location: PostgresLocation, connections: Int = defaultConnections, timeout: Duration = .seconds(10),
    logger: Logger = Logger(label: "tally.postgres")
  ) async throws(StoreError) -> PostgresAppDatabase {
    try await open(location, connections: connections, timeout: timeout, logger: logger, migrations: PostgresMigrations.all)
  }

  /// ``open(_:connections:timeout:logger:)`` with only the first migrations, for tests that
  /// migrate a database an older Tally made.
  static func open(
    _ location: PostgresLocation, connections: Int, timeout: Duration, logger: Logger,
    migrations: [PostgresMigrations.Step]
  ) async throws(StoreError) -> PostgresAppDatabase {
    let configuration: PostgresConnection.Configuration
    do {
      configuration = try location.connectionConfiguration()
    } catch {
      throw StoreError.storage("Could not set up TLS for PostgreSQL at \(location.server): \(error)")
    }
    let database = PostgresAppDatabase(
      location: location, configuration: configuration, connections: connections, timeout: timeout, logger: logger)
    do {
      try await PostgresMigrations.migrate(database, migrations)
    } catch {
      database.close()
      throw error
    }
    return database
  }

  private init(
    location: PostgresLocation, configuration: PostgresConnection.Configuration, connections: Int,
    timeout: Duration, logger: Logger
  ) {
    self.location = location
    self.timeout = timeout
    self.logger = logger
    // One more for the connection that listens for other instances' commits.
    let pool = KeptConnections(
      count: connections + 1, configuration: configuration, check: .init(within: timeout), logger: logger)
    self.pool = pool
    runner = Task { await pool.run() }
    let (heads, signIns) = (FeedHeads(tracking: false), SignInCache(tracking: false))
    let announcements = CommitAnnouncements(schema: location.schema ?? "public")
    (self.heads, self.signIns, self.announcements) = (heads, signIns, announcements)
    listener = Task {
      await PostgresFeedAnnouncements.listen(
        pool: pool, heads: heads, signIns: signIns, announcements: announcements, logger: logger)
    }
  }

  /// Closes the pool; reads and writes fail afterwards.
  public func close() {
    listener.cancel()
    runner.cancel()
  }

  deinit {
    listener.cancel()
    runner.cancel()
  }

  /// Runs `body` on a pooled connection outside a transaction.
  func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws -> T
  {
    try await limited { [self] in try await leased(body) }
  }

  /// Runs `body` on a pooled connection, on the connection's event loop (``EventLoopExecutor``);
  /// a pool that cannot give one (closed, or the database unreachable) is
  /// ``StoreError/storage(_:)``, whatever type the pool throws.
  private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws -> T
  {
    let leasedOne = Mutex(false)
    do {
      return try await pool.withConnection { connection in
        leasedOne.withLock { $0 = true }
        return try await withTaskExecutorPreference(EventLoopExecutor.of(connection.eventLoop)) {
          // A call given up on (past its time limit) may wait for an answer that never comes, a
          // connection a firewall dropped without a word: closed, the pool opens another, rather
          // than keep this one lent to no one until TCP gives up, a quarter of an hour later.
          try await withTaskCancellationHandler {
            try await body(connection)
          } onCancel: {
            connection.close().whenComplete { _ in }
          }
        }
      }
    } catch where !leasedOne.withLock({ $0 }) {
      throw StoreError.storage("PostgreSQL at \(location.server) gave no connection (\(error))")
    }
  }

  /// Runs `body` in one transaction, committed when it returns. A write that lost a deadlock
  /// or a serialization check is run again from the start, at most three times. The feed
  /// heads it moved, and any change to who may sign in, are announced to this instance once
  /// it has committed, and the heads to the other instances, on its connection
  /// (``CommitAnnouncements``). A write for `turnOf` takes its turn among that user's other
  /// writes through this instance (``WriteTurns``), within the same time limit, before it
  /// takes a connection.
  func transaction<T: Sendable>(
    _ isolation: Isolation = .readCommitted, timeLimited: Bool = true, turnOf user: UUID? = nil,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    try await announcing { [self] in try await attempts(isolation, timeLimited: timeLimited, turnOf: user, body) }
  }

  /// Runs `body` on a pooled connection outside a transaction, so that each of its statements
  /// commits on its own, in `user`'s turn among their writes (``writeTurns``), so that a burst
  /// holds no more connections than it would in transactions. The feed heads it records are
  /// kept and announced as a transaction's are, once `body` returns.
  func committingEach<T: Sendable>(
    turnOf user: UUID, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    try await announcing { [self] in
      try await limited { [self] in
        try await writeTurns.run(user) { [self] in try await leasedAnnouncing(body) }
      }
    }
  }

  /// `body` with the changes it records (``PendingChanges``), which this instance learns of
  /// once it returns: they have been committed by then.
  func announcing<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    let pending = PendingChanges()
    let result = try await PendingChanges.$current.withValue(pending) { try await body() }
    pending.take().announce(to: heads, signIns)
    return result
  }

  /// `body` on a pooled connection; once it has committed what it wrote, the heads it moved
  /// are told to the other instances on the same connection (``CommitAnnouncements``).
  func leasedAnnouncing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws -> T
  {
    try await leased { [logger, announcements] connection in
      let result = try await body(connection)
      await announcements.announce(PendingChanges.current, on: connection, logger: logger)
      return result
    }
  }

  private func attempts<T: Sendable>(
    _ isolation: Isolation, timeLimited: Bool, turnOf user: UUID?,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    var attempt = 1
    while true {
      PendingChanges.current?.reset()
      do {
        return try await limited(timeLimited) { [self] in
          let run = { [self] in
            try await leasedAnnouncing { connection in
              try await connection.openTransaction { connection in
                if isolation != .readCommitted {
                  try await connection.run(PostgresQuery(unsafeSQL: isolation.rawValue))
                }
                return try await body(connection)
              }
            }
          }
          guard let user else { return try await run() }
          return try await writeTurns.run(user, run)
        }
      } catch let error as TransactionFailure {
        let cause = error.cause
        guard let failure = cause as? PSQLError, attempt < 3, Self.isRetryable(failure) else { throw cause }
        attempt += 1
      }
    }
  }

  enum Isolation: String, Sendable {
    case readCommitted = ""
    /// One snapshot for the whole transaction: exports read all of a user's data at one instant.
    case repeatableReadOnly = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
  }

  static func isRetryable(_ error: PSQLError) -> Bool {
    ["40001", "40P01"].contains(error.serverInfo?[.sqlState] ?? "")
  }

  /// `body`, or ``StoreError/storage(_:)`` once the time limit has passed. The caller is
  /// answered at the limit even when `body` does not stop when cancelled (a query on a
  /// connection the server dropped): it is cancelled and left to finish on its own.
  func limited<T: Sendable>(_ enforced: Bool = true, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    guard enforced else { return try await body() }
    let limit = unreachable.withLock { $0 } ? timeout / 10 : timeout
    let race = Race<T>()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        race.start(continuation, limit: limit, body)
      }
    } onCancel: {
      race.finish(.failure(CancellationError()))
    }
    guard case .success(let value) = result else {
      if case .failure(let error) = result, !(error is Race<T>.TimedOut) { throw error }
      unreachable.withLock { $0 = true }
      throw StoreError.storage("PostgreSQL at \(location.server) did not answer within \(limit)")
    }
    unreachable.withLock { $0 = false }
    return value
  }
}

/// The work and a timer, whichever ends first answers; the other is cancelled. Every query
/// runs in a race, so the timer is one of NIO's scheduled callbacks, which a cancel simply
/// drops, rather than a sleeping task that must be started, woken and run to its end.
private final class Race<T: Sendable>: Sendable {
  struct TimedOut: Error {}

  private let state = Mutex<(CheckedContinuation<Result<T, any Error>, Never>?, Task<Void, Never>?, Scheduled<Void>?)>(
    (nil, nil, nil))

  func start(
    _ continuation: CheckedContinuation<Result<T, any Error>, Never>, limit: Duration,
    _ body: @escaping @Sendable () async throws -> T
  ) {
    state.withLock { $0.0 = continuation }
    let work = Task {
      do {
        self.finish(.success(try await body()))
      } catch {
        self.finish(.failure(error))
      }
    }
    let timer = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: TimeAmount(limit)) {
      self.finish(.failure(TimedOut()))
    }
    let finished = state.withLock { state in
      (state.1, state.2) = (work, timer)
      return state.0 == nil
    }
    if finished {
      work.cancel()
      timer.cancel()
    }
  }

  /// Answers the caller unless someone did; cancels what still runs.
  func finish(_ result: Result<T, any Error>) {
    let (continuation, work, timer) = state.withLock { state in
      let taken = state
      state = (nil, nil, nil)
      return taken
    }
    guard let continuation else { return }
    work?.cancel()
    timer?.cancel()
    continuation.resume(returning: result)
  }
}
