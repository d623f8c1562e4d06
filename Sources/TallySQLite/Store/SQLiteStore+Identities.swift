import Foundation
import GRDB
import TallyCore
import TallyStore

extension SQLiteStore {
  public func user(issuer: String, subject: String) async throws -> User? {
    try await read { db in
      let id = try String.fetchOne(
        db, sql: "SELECT user_id FROM provider_identities WHERE issuer = ? AND subject = ?",
        arguments: [issuer, subject])
      return try id.flatMap { try UserRecord.fetchOne(db, key: $0)?.user() }
    }
  }

  public func identities(for user: UUID) async throws -> [ProviderIdentity] {
    try await read { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM provider_identities WHERE user_id = ? ORDER BY created_at, issuer, subject",
        arguments: [user.storeText]
      ).map(Self.identity)
    }
  }

  public func linkIdentity(_ identity: ProviderIdentity) async throws {
    try await write { db in
      try db.requireUser(identity.userID)
      try db.insertIdentity(identity)
    }
  }

  public func createAccount(
    _ user: User, credential: PasswordCredential, identity: ProviderIdentity, invitationHash: String?
  ) async throws -> User {
    let user = try User.checked(user)
    let (credential, identity) = (credential.naming(user), identity.naming(user))
    return try await write { db in
      if let invitationHash {
        let taken = try Int.fetchOne(
          db, sql: "DELETE FROM invitations WHERE token_hash = ? AND expires_at > ? RETURNING 1",
          arguments: [invitationHash, InstantText.text(identity.createdAt)])
        guard taken != nil else { throw StoreError.notFound(.invitation) }
      }
      try db.insertUser(user)
      try db.saveCredential(credential)
      try db.insertIdentity(identity)
      return user
    }
  }

  public func createInvitation(_ invitation: Invitation) async throws {
    try await write { db in
      try db.requireUser(invitation.createdBy)
      try db.execute(
        sql: "INSERT INTO invitations (token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)",
        arguments: [
          invitation.tokenHash, invitation.createdBy.storeText, InstantText.text(invitation.createdAt),
          InstantText.text(invitation.expiresAt),
        ])
    }
  }

  static func identity(_ row: Row) throws -> ProviderIdentity {
    let issuer: String = row["issuer"]
    let subject: String = row["subject"]
    let what = "provider identity \(subject) of \(issuer)"
    guard let userID = UUID(uuidString: row["user_id"]) else { throw StoreError.corrupt("\(what) user_id") }
    let createdAt = try Stored.instant(row["created_at"], "\(what) created_at")
    return try Stored.valid(what) { () throws(ValidationError) in
      try ProviderIdentity(issuer: issuer, subject: subject, userID: userID, createdAt: createdAt)
    }
  }
}

extension Database {
  /// Inserts the pair; the same pair already linked to the same user is left as it is.
  fileprivate func insertIdentity(_ identity: ProviderIdentity) throws {
    let linked = try String.fetchOne(
      self, sql: "SELECT user_id FROM provider_identities WHERE issuer = ? AND subject = ?",
      arguments: [identity.issuer, identity.subject])
    if let linked {
      guard linked == identity.userID.storeText else {
        throw StoreError.conflict("this sign-in is already linked to another account")
      }
      return
    }
    try execute(
      sql: "INSERT INTO provider_identities (issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?)",
      arguments: [identity.issuer, identity.subject, identity.userID.storeText, InstantText.text(identity.createdAt)])
  }
}

// MARK: - Sign-ins in progress

extension SQLiteStore {
  public func keepPendingSignIn(key: String, body: String, at now: Date, lifetime: TimeInterval, capacity: Int)
    async throws
  {
    try await write { db in
      try db.execute(
        sql: "DELETE FROM pending_sign_ins WHERE created_at <= ?",
        arguments: [InstantText.text(now.addingTimeInterval(-lifetime))])
      try db.execute(
        sql: """
          DELETE FROM pending_sign_ins WHERE key IN (
            SELECT key FROM pending_sign_ins ORDER BY created_at
            LIMIT max(0, (SELECT count(*) FROM pending_sign_ins) - ? + 1))
          """,
        arguments: [capacity])
      try db.execute(
        sql: "INSERT OR REPLACE INTO pending_sign_ins (key, body, created_at) VALUES (?, ?, ?)",
        arguments: [key, body, InstantText.text(now)])
    }
  }

  public func takePendingSignIn(key: String, at now: Date, lifetime: TimeInterval) async throws -> String? {
    try await write { db in
      try String.fetchOne(
        db, sql: "DELETE FROM pending_sign_ins WHERE key = ? AND created_at > ? RETURNING body",
        arguments: [key, InstantText.text(now.addingTimeInterval(-lifetime))])
    }
  }
}
