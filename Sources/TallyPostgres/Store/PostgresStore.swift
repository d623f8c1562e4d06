import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// The ``Store`` on PostgreSQL: every method is one transaction on a pooled connection, and
/// every query names the user, so one user's rows never reach another. A write for a user
/// first locks that user's row, so one user's writes take turns, as on SQLite, while other
/// users' go on beside them; rules across users (names, ids, one owner) are the database's
/// constraints.
public struct PostgresStore: Store {
  public let database: PostgresAppDatabase
  /// Read only to stamp changes for sync (the hybrid clock's physical part).
  public let clock: @Sendable () -> Date

  public init(_ database: PostgresAppDatabase, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.database = database
    self.clock = clock
  }

  /// Runs `body` in a write transaction with a recorder for the user's change feed.
  func write<T: Sendable>(
    recordingFor user: UUID, _ body: @escaping @Sendable (PostgresConnection, PostgresSyncRecorder) async throws -> T
  ) async throws -> T {
    let now = clock()
    return try await write(turnOf: user) { connection in
      try await body(connection, try await PostgresSyncRecorder(connection, user: user, now: now))
    }
  }

  /// Runs `body` in a write transaction: all of it is committed, or none. A write of one
  /// user's data names them, and takes its turn among their other writes through this instance.
  func write<T: Sendable>(
    turnOf user: UUID? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    do {
      return try await database.transaction(.readCommitted, turnOf: user, body)
    } catch {
      throw Self.storeError(error)
    }
  }

  /// Runs `body` in a write transaction of `user`'s, which may be shared with their other
  /// writes made this way (``PostgresAppDatabase/transaction(together:_:)``).
  func write<T: Sendable>(
    together user: UUID, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    do {
      return try await database.transaction(together: user, body)
    } catch {
      throw Self.storeError(error)
    }
  }

  /// A read. At read committed every statement sees a fresh snapshot inside a transaction or
  /// out of one, so such reads skip `BEGIN` and `COMMIT` (two round trips each); a read that
  /// must see one instant throughout asks for ``PostgresAppDatabase/Isolation/repeatableReadOnly``.
  func read<T: Sendable>(
    _ isolation: PostgresAppDatabase.Isolation = .readCommitted,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    do {
      if isolation == .readCommitted { return try await database.withConnection(body) }
      return try await database.transaction(isolation, body)
    } catch {
      throw Self.storeError(error)
    }
  }

  public var feedHeads: FeedHeads { database.heads }

  /// Read from the database: a user's write through another instance, then a read of a
  /// page here, must not meet a kept page before the announcement arrives.
  public func revision(for user: UUID) async throws -> StoreRevision {
    let epoch = feedHeads.epoch
    let head = try await syncHead(for: user)
    feedHeads.remember(head, of: user, epoch: epoch)
    return StoreRevision(head: head)
  }

  /// From memory while this instance hears every commit announced, else from the database.
  public func heardHead(for user: UUID) async throws -> Int64 {
    if let head = feedHeads.head(of: user) { return head }
    return try await revision(for: user).head
  }

  /// While announcements are not heard, the watched users' heads are read, in one query.
  public func catchUp() async throws {
    guard !feedHeads.isTracking else { return }
    let users = Array(feedHeads.watchedUsers)
    guard !users.isEmpty else { return }
    let moved = try await read { connection in
      var moved: [UUID: Int64] = [:]
      for row in try await connection.rows("SELECT user_id, position FROM sync_heads WHERE user_id = ANY(\(users))") {
        moved[try row["user_id"].decode(UUID.self)] = try row["position"].decode(Int64.self)
      }
      return moved
    }
    feedHeads.advance(moved)
  }

  /// PostgreSQL keeps its caches in its own processes.
  public func releaseMemory() async {}

  static func storeError(_ error: any Error) -> any Error {
    switch error {
    case let error as StoreError:
      return error
    case let error as PSQLError where error.code == .server:
      let state = error.serverInfo?[.sqlState] ?? ""
      if state.hasPrefix("23") {
        return StoreError.conflict("the change breaks a rule of the database (\(reason(error)))")
      }
      return StoreError.storage(reason(error))
    case let error as PSQLError:
      return StoreError.storage("PostgreSQL cannot be reached (\(error.code))")
    default:
      return error
    }
  }

  static func reason(_ error: any Error) -> String {
    if let error = error as? PSQLError {
      return error.serverInfo?[.message] ?? "\(error.code)"
    }
    return String(describing: error)
  }
}

// MARK: - Rows and ownership, inside a transaction

extension PostgresConnection {
  /// Every row of the query's answer, read by column name.
  func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
    try checkOpen()
    var result: [PostgresRandomAccessRow] = []
    for try await row in try await self.query(query, logger: PostgresAppDatabase.quiet) {
      result.append(row.makeRandomAccess())
    }
    return result
  }

  /// The first column of each row.
  func values<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> [T] {
    try checkOpen()
    var result: [T] = []
    for try await (value) in try await self.query(query, logger: PostgresAppDatabase.quiet).decode(T.self) {
      result.append(value)
    }
    return result
  }

  /// Runs a statement; returns how many rows it returned (`RETURNING 1` counts changed rows).
  @discardableResult
  func run(_ query: PostgresQuery) async throws -> Int {
    try checkOpen()
    var count = 0
    for try await _ in try await self.query(query, logger: PostgresAppDatabase.quiet) { count += 1 }
    return count
  }

  func exists(_ query: PostgresQuery) async throws -> Bool {
    try await values(query, as: Bool.self).first ?? false
  }

  func requireUser(_ id: UUID) async throws {
    guard try await exists("SELECT EXISTS (SELECT 1 FROM users WHERE id = \(id))") else {
      throw StoreError.notFound(.user(id))
    }
  }

  /// Checks the user exists and holds their row until the transaction ends: their writes take
  /// turns, on every instance, while foreign keys to the row stay free.
  func lockUser(_ id: UUID) async throws {
    guard try await exists("SELECT EXISTS (SELECT 1 FROM users WHERE id = \(id) FOR NO KEY UPDATE)") else {
      throw StoreError.notFound(.user(id))
    }
  }

  func ownedHabit(_ id: UUID, of user: UUID) async throws -> Habit {
    guard let row = try await rows("SELECT * FROM habits WHERE id = \(id) AND user_id = \(user)").first else {
      throw StoreError.notFound(.habit(id))
    }
    return try PostgresRows.habit(row)
  }

  func requireShow(_ id: UUID, of user: UUID) async throws {
    guard try await exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(id) AND user_id = \(user))") else {
      throw StoreError.notFound(.show(id))
    }
  }
}
