import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The ``Store`` on SQLite: every method is one read or one write transaction on an
/// ``AppDatabase``, and every query names the user, so one user's rows never reach another.
public struct SQLiteStore: Store {
  public let database: AppDatabase
  /// Read only to stamp changes for sync (the hybrid clock's physical part).
  public let clock: @Sendable () -> Date

  public init(_ database: AppDatabase, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.database = database
    self.clock = clock
  }

  /// Runs `body` in a write transaction with a recorder for the user's change feed.
  func write<T: Sendable>(
    recordingFor user: UUID, _ body: @escaping @Sendable (Database, SyncRecorder) throws -> T
  ) async throws -> T {
    let now = clock()
    return try await write { db in
      try db.requireUser(user)
      return try body(db, try SyncRecorder(db, user: user, now: now))
    }
  }

  /// Runs `body` in a write transaction: all of it is committed, or none. The feed heads it
  /// moved, and any change to who may sign in, are announced once it has committed.
  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    let changes = database.changes
    do {
      let (result, committed) = try await database.writer.write { db in
        changes.beginWrite()
        let result = try body(db)
        return (result, changes.committed())
      }
      committed.announce(to: changes.heads, changes.signIns)
      return result
    } catch {
      throw Self.storeError(error)
    }
  }

  public var feedHeads: FeedHeads { database.changes.heads }

  var signIns: SignInCache { database.changes.signIns }

  /// One file, one writer: the heads this process keeps are exact once other processes'
  /// commits are caught up with.
  public func revision(for user: UUID) async throws -> StoreRevision {
    StoreRevision(head: try await heardHead(for: user))
  }

  public func heardHead(for user: UUID) async throws -> Int64 {
    try await catchUp()
    if let head = feedHeads.head(of: user) { return head }
    let epoch = feedHeads.epoch
    let head = try await syncHead(for: user)
    feedHeads.remember(head, of: user, epoch: epoch)
    return head
  }

  /// Another process's commit names no user: every kept sign-in is forgotten, the watched
  /// users' heads are read again, in one query, and those that moved wake their streams.
  public func catchUp() async throws {
    do {
      try await database.changes.whenOthersCommitted(writer: database.writer) {
        signIns.forgetAll()
        let users = feedHeads.watchedUsers
        guard !users.isEmpty else { return }
        let moved = try await read { db in
          var moved: [UUID: Int64] = [:]
          let rows = try Row.fetchCursor(
            db, sql: "SELECT user_id, position FROM sync_heads WHERE user_id IN (SELECT value FROM json_each(?))",
            arguments: [SyncJSONText.array(users.map(\.storeText))])
          while let row = try rows.next() {
            if let user = UUID(uuidString: row["user_id"]) { moved[user] = row["position"] }
          }
          return moved
        }
        feedHeads.advance(moved)
      }
    } catch {
      throw Self.storeError(error)
    }
  }

  /// The writer's page cache may grow to 32 MiB (``AppDatabase``), and an import fills it
  /// with pages no request will want soon; it empties here. Readers keep SQLite's 2 MiB.
  public func releaseMemory() async {
    try? await database.writer.writeWithoutTransaction { db in db.releaseMemory() }
  }

  /// A read of one user's day, one habit or one list runs on the caller's thread: waiting on a
  /// reader's queue cost a page two switches between threads per read (docs/storage.md,
  /// "Reads"). Reads across every habit or all of a journal go through ``readAside(_:)``.
  func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try Self.readHere(database.reader, body)
    } catch {
      throw Self.storeError(error)
    }
  }

  /// A read that grows with the whole account (every habit's entries, an export, a sync
  /// client's pull) runs on a reader's own queue, so it never holds one of the few threads
  /// every request shares.
  func readAside<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await database.reader.read(body)
    } catch {
      throw Self.storeError(error)
    }
  }

  /// The synchronous read, which an async caller would not choose by itself.
  private static func readHere<T>(_ reader: any DatabaseReader, _ body: (Database) throws -> T) throws -> T {
    try reader.read(body)
  }

  static func storeError(_ error: any Error) -> any Error {
    switch error {
    case let error as StoreError:
      return error
    case let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT:
      return StoreError.conflict("the change breaks a rule of the database (\(AppDatabase.reason(error)))")
    case let error as DatabaseError:
      return StoreError.storage(AppDatabase.reason(error))
    default:
      return error
    }
  }
}

// MARK: - Ownership checks, inside a transaction

extension Database {
  // The lookups every request makes go through prepared statements the connection keeps:
  // building their SQL through the query interface on every request was about a twentieth of
  // the server's time on a page after a write.
  func requireUser(_ id: UUID) throws {
    let statement = try cachedStatement(sql: "SELECT 1 FROM users WHERE id = ?")
    guard try Int.fetchOne(statement, arguments: [id.storeText]) != nil else { throw StoreError.notFound(.user(id)) }
  }

  /// Inserts a checked user, naming the id or the name that is taken.
  func insertUser(_ user: User) throws {
    guard try !UserRecord.exists(self, key: user.id.storeText) else {
      throw StoreError.conflict("a user with id \(user.id.storeText) already exists")
    }
    guard try UserRecord.filter(UserRecord.Columns.name == user.name).fetchCount(self) == 0 else {
      throw StoreError.conflict("a user named '\(user.name)' already exists")
    }
    try UserRecord(user).insert(self)
    // A new user's settings are where they start, not an edit: any real change wins.
    try SyncRecorder(genesisIn: self, user: user.id).record(.settings(user.settings))
  }

  func ownedHabit(_ id: UUID, of user: UUID) throws -> HabitRecord {
    let statement = try cachedStatement(sql: "SELECT * FROM habits WHERE id = ? AND user_id = ?")
    guard let record = try HabitRecord.fetchOne(statement, arguments: [id.storeText, user.storeText]) else {
      throw StoreError.notFound(.habit(id))
    }
    return record
  }

  func ownedShow(_ id: UUID, of user: UUID) throws -> ShowRecord {
    guard
      let record = try ShowRecord
        .filter(ShowRecord.Columns.id == id.storeText && ShowRecord.Columns.userID == user.storeText)
        .fetchOne(self)
    else { throw StoreError.notFound(.show(id)) }
    return record
  }
}
