import Foundation
import GRDB
import TallyCore
import TallyStore

extension SQLiteStore {
  public func createAccount(_ user: User, credential: PasswordCredential) async throws -> User {
    let user = try User.checked(user)
    let credential = credential.naming(user)
    return try await write { db in
      try db.insertUser(user)
      try db.saveCredential(credential)
      return user
    }
  }

  public func setCredential(_ credential: PasswordCredential) async throws {
    try await write { db in
      try db.requireUser(credential.userID)
      try db.saveCredential(credential)
    }
  }

  public func credential(for user: UUID) async throws -> PasswordCredential? {
    try await read { db in
      try UserCredentialRecord.fetchOne(db, key: user.storeText)?.credential()
    }
  }

  public func ownerID() async throws -> UUID? {
    try await read { db in
      try UserCredentialRecord.filter(UserCredentialRecord.Columns.role == AccountRole.owner.rawValue)
        .fetchOne(db)?.credential().userID
    }
  }
}

extension Database {
  func saveCredential(_ credential: PasswordCredential) throws {
    typealias C = UserCredentialRecord.Columns
    if credential.role == .owner {
      let others = try UserCredentialRecord
        .filter(C.role == AccountRole.owner.rawValue && C.userID != credential.userID.storeText)
        .fetchCount(self)
      guard others == 0 else { throw StoreError.conflict("this server already has an owner") }
    }
    try UserCredentialRecord(credential).save(self)
  }
}
