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

  /// Runs `body` in a write transaction: all of it is committed, or none.
  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      let result = try await database.writer.write(body)
      database.changes.recordWrite()
      return result
    } catch {
      throw Self.storeError(error)
    }
  }

  public func revision() async throws -> StoreRevision {
    do {
      return try database.revision()
    } catch {
      throw Self.storeError(error)
    }
  }

  func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await database.reader.read(body)
    } catch {
      throw Self.storeError(error)
    }
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
  func requireUser(_ id: UUID) throws {
    guard try UserRecord.exists(self, key: id.storeText) else { throw StoreError.notFound(.user(id)) }
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
    guard
      let record = try HabitRecord
        .filter(HabitRecord.Columns.id == id.storeText && HabitRecord.Columns.userID == user.storeText)
        .fetchOne(self)
    else { throw StoreError.notFound(.habit(id)) }
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
