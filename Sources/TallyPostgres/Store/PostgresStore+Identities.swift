import Foundation
import PostgresNIO
import TallyCore
import TallyStore

extension PostgresStore {
  public func user(issuer: String, subject: String) async throws -> User? {
    try await read { connection in
      try await connection.rows(
        """
        SELECT users.* FROM provider_identities JOIN users ON users.id = provider_identities.user_id
        WHERE issuer = \(issuer) AND subject = \(subject)
        """
      ).first.map(PostgresRows.user)
    }
  }

  public func identities(for user: UUID) async throws -> [ProviderIdentity] {
    try await read { connection in
      try await connection.rows(
        "SELECT * FROM provider_identities WHERE user_id = \(user) ORDER BY created_at, issuer, subject"
      ).map(Self.identity)
    }
  }

  public func linkIdentity(_ identity: ProviderIdentity) async throws {
    try await write { connection in
      try await connection.requireUser(identity.userID)
      try await connection.insertIdentity(identity)
    }
  }

  public func createAccount(
    _ user: User, credential: PasswordCredential, identity: ProviderIdentity, invitationHash: String?
  ) async throws -> User {
    let user = try User.checked(user)
    let (credential, identity) = (credential.naming(user), identity.naming(user))
    return try await write { connection in
      if let invitationHash {
        let taken = try await connection.run(
          """
          DELETE FROM invitations WHERE token_hash = \(invitationHash)
            AND expires_at > \(InstantText.text(identity.createdAt)) RETURNING 1
          """)
        guard taken == 1 else { throw StoreError.notFound(.invitation) }
      }
      try await connection.insertUser(user)
      try await connection.saveCredential(credential)
      try await connection.insertIdentity(identity)
      return user
    }
  }

  public func createInvitation(_ invitation: Invitation) async throws {
    try await write { connection in
      try await connection.requireUser(invitation.createdBy)
      try await connection.run(
        """
        INSERT INTO invitations (token_hash, created_by, created_at, expires_at)
        VALUES (\(invitation.tokenHash), \(invitation.createdBy), \(InstantText.text(invitation.createdAt)),
          \(InstantText.text(invitation.expiresAt)))
        """)
    }
  }

  static func identity(_ row: PostgresRandomAccessRow) throws -> ProviderIdentity {
    let issuer = try PostgresRows.text(row, "issuer")
    let subject = try PostgresRows.text(row, "subject")
    let what = "provider identity \(subject) of \(issuer)"
    let userID = try row["user_id"].decode(UUID.self)
    let createdAt = try Stored.instant(try PostgresRows.text(row, "created_at"), "\(what) created_at")
    return try Stored.valid(what) { () throws(ValidationError) in
      try ProviderIdentity(issuer: issuer, subject: subject, userID: userID, createdAt: createdAt)
    }
  }
}

extension PostgresConnection {
  /// Inserts the pair, or finds it already there: the primary key decides when two instances
  /// link one pair at once, and the loser learns whose it became.
  fileprivate func insertIdentity(_ identity: ProviderIdentity) async throws {
    let inserted = try await run(
      """
      INSERT INTO provider_identities (issuer, subject, user_id, created_at)
      VALUES (\(identity.issuer), \(identity.subject), \(identity.userID), \(InstantText.text(identity.createdAt)))
      ON CONFLICT (issuer, subject) DO NOTHING RETURNING 1
      """)
    guard inserted == 0 else { return }
    let linked = try await values(
      "SELECT user_id FROM provider_identities WHERE issuer = \(identity.issuer) AND subject = \(identity.subject)",
      as: UUID.self)
    guard linked.first == identity.userID else {
      throw StoreError.conflict("this sign-in is already linked to another account")
    }
  }
}

// MARK: - Sign-ins in progress

extension PostgresStore {
  public func keepPendingSignIn(key: String, body: String, at now: Date, lifetime: TimeInterval, capacity: Int)
    async throws
  {
    let cutoff = InstantText.text(now.addingTimeInterval(-lifetime))
    try await write { connection in
      try await connection.run("DELETE FROM pending_sign_ins WHERE created_at <= \(cutoff)")
      // Instances trimming at once may each leave one more than `capacity`: a bound, not a count.
      try await connection.run(
        """
        DELETE FROM pending_sign_ins WHERE key IN (
          SELECT key FROM pending_sign_ins ORDER BY created_at
          LIMIT greatest(0, (SELECT count(*) FROM pending_sign_ins) - \(capacity) + 1))
        """)
      try await connection.run(
        """
        INSERT INTO pending_sign_ins (key, body, created_at) VALUES (\(key), \(body), \(InstantText.text(now)))
        ON CONFLICT (key) DO UPDATE SET body = excluded.body, created_at = excluded.created_at
        """)
    }
  }

  public func takePendingSignIn(key: String, at now: Date, lifetime: TimeInterval) async throws -> String? {
    let cutoff = InstantText.text(now.addingTimeInterval(-lifetime))
    return try await write { connection in
      try await connection.values(
        "DELETE FROM pending_sign_ins WHERE key = \(key) AND created_at > \(cutoff) RETURNING body", as: String.self
      ).first
    }
  }
}
