import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Users

extension SQLiteStore {
  public func createUser(_ user: User) async throws -> User {
    let user = try User.checked(user)
    return try await write { db in
      try db.insertUser(user)
      return user
    }
  }

  /// Every request asks, after its token or session: kept in ``SignInCache``.
  public func user(id: UUID) async throws -> User {
    try await catchUp()
    return try await signIns.value(.user(id), orRead: {
      try await read { db in
        let statement = try db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?")
        guard let record = try UserRecord.fetchOne(statement, arguments: [id.storeText]) else {
          throw StoreError.notFound(.user(id))
        }
        return try record.user()
      }
    })
  }

  public func user(named name: String) async throws -> User {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await read { db in
      guard let record = try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db) else {
        throw StoreError.notFound(.userNamed(name))
      }
      return try record.user()
    }
  }

  public func users() async throws -> [User] {
    try await readAside { db in
      try UserRecord.fetchAll(db).map { record throws(StoreError) in try record.user() }
        .sorted(by: StoreOrder.users)
    }
  }

  public func updateSettings(_ settings: UserSettings, for user: UUID) async throws -> User {
    let settings = try StoreError.validating { () throws(ValidationError) in try settings.validated() }
    let now = clock()
    return try await write { db in
      guard let record = try UserRecord.fetchOne(db, key: user.storeText) else {
        throw StoreError.notFound(.user(user))
      }
      var updated = try record.user()
      updated.settings = settings
      try UserRecord(updated).update(db)
      try SyncRecorder(db, user: user, now: now).record(.settings(settings))
      return updated
    }
  }
}
