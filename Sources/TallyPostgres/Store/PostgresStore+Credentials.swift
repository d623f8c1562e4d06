import Foundation
import PostgresNIO
import TallyCore
import TallyStore

// MARK: - API tokens and browser sessions

extension PostgresStore {
  public func createAPIToken(_ token: APIToken) async throws -> APIToken {
    let token = try token.checked()
    return try await write { connection in
      try await connection.requireUser(token.userID)
      guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM api_tokens WHERE id = \(token.id))") else {
        throw StoreError.conflict("an API token with id \(token.id.storeText) already exists")
      }
      guard
        try await !connection.exists("SELECT EXISTS (SELECT 1 FROM api_tokens WHERE token_hash = \(token.tokenHash))")
      else { throw StoreError.conflict("an API token with this hash already exists") }
      try await connection.run(
        """
        INSERT INTO api_tokens (id, user_id, token_hash, name, created_at, expires_at)
        VALUES (\(token.id), \(token.userID), \(token.tokenHash), \(token.name), \(InstantText.text(token.createdAt)),
          \(token.expiresAt.map(InstantText.text)))
        """)
      return token
    }
  }

  /// Every API request asks: kept in ``SignInCache``.
  public func apiToken(hash: String, at now: Date) async throws -> APIToken? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    return try await database.signIns.valid(.token(hash: hash), at: now, orFind: {
      try await read { connection in
        try await connection.rows("SELECT * FROM api_tokens WHERE token_hash = \(hash)").first.map(Self.token)
      }
    })
  }

  public func apiTokens(for user: UUID) async throws -> [APIToken] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows("SELECT * FROM api_tokens WHERE user_id = \(user)").map(Self.token)
        .sorted(by: CredentialOrder.tokens)
    }
  }

  public func deleteAPIToken(id: UUID, for user: UUID) async throws {
    try await write { connection in
      PendingChanges.current?.recordSignInChange()
      let deleted = try await connection.run(
        "DELETE FROM api_tokens WHERE id = \(id) AND user_id = \(user) RETURNING 1")
      guard deleted == 1 else { throw StoreError.notFound(.apiToken(id)) }
    }
  }

  public func createSession(_ session: BrowserSession) async throws -> BrowserSession {
    let session = try session.checked()
    return try await write { connection in
      try await connection.requireUser(session.userID)
      guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM sessions WHERE id = \(session.id))") else {
        throw StoreError.conflict("a session with id \(session.id.storeText) already exists")
      }
      guard
        try await !connection.exists("SELECT EXISTS (SELECT 1 FROM sessions WHERE token_hash = \(session.tokenHash))")
      else { throw StoreError.conflict("a session with this hash already exists") }
      try await connection.run(
        """
        INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at)
        VALUES (\(session.id), \(session.userID), \(session.tokenHash), \(InstantText.text(session.createdAt)),
          \(InstantText.text(session.expiresAt)))
        """)
      return session
    }
  }

  /// Every page asks, as every API request asks for its token: kept in ``SignInCache``.
  public func session(hash: String, at now: Date) async throws -> BrowserSession? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    return try await database.signIns.valid(.session(hash: hash), at: now, orFind: {
      try await read { connection in
        try await connection.rows("SELECT * FROM sessions WHERE token_hash = \(hash)").first.map(Self.session)
      }
    })
  }

  public func deleteSession(id: UUID, for user: UUID) async throws {
    try await write { connection in
      PendingChanges.current?.recordSignInChange()
      let deleted = try await connection.run("DELETE FROM sessions WHERE id = \(id) AND user_id = \(user) RETURNING 1")
      guard deleted == 1 else { throw StoreError.notFound(.session(id)) }
    }
  }

  public func deleteSessions(expiredAt now: Date) async throws -> Int {
    let cutoff = InstantText.text(now)
    return try await write { connection in
      PendingChanges.current?.recordSignInChange()
      return try await connection.run("DELETE FROM sessions WHERE expires_at <= \(cutoff) RETURNING 1")
    }
  }

  static func token(_ row: PostgresRandomAccessRow) throws -> APIToken {
    let id = try row["id"].decode(UUID.self)
    let what = "API token \(id.storeText)"
    let userID = try row["user_id"].decode(UUID.self)
    let hash = try PostgresRows.text(row, "token_hash")
    let name = try PostgresRows.text(row, "name")
    let createdAt = try Stored.instant(try PostgresRows.text(row, "created_at"), "\(what) created_at")
    let expiresAt = try PostgresRows.optionalText(row, "expires_at").map { text in
      try Stored.instant(text, "\(what) expires_at")
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try APIToken(id: id, userID: userID, tokenHash: hash, name: name, createdAt: createdAt, expiresAt: expiresAt)
    }
  }

  static func session(_ row: PostgresRandomAccessRow) throws -> BrowserSession {
    let id = try row["id"].decode(UUID.self)
    let what = "session \(id.storeText)"
    let userID = try row["user_id"].decode(UUID.self)
    let hash = try PostgresRows.text(row, "token_hash")
    let createdAt = try Stored.instant(try PostgresRows.text(row, "created_at"), "\(what) created_at")
    let expiresAt = try Stored.instant(try PostgresRows.text(row, "expires_at"), "\(what) expires_at")
    return try Stored.valid(what) { () throws(ValidationError) in
      try BrowserSession(id: id, userID: userID, tokenHash: hash, createdAt: createdAt, expiresAt: expiresAt)
    }
  }
}

// MARK: - Passwords and roles

extension PostgresStore {
  public func createAccount(_ user: User, credential: PasswordCredential) async throws -> User {
    let user = try User.checked(user)
    let credential = credential.naming(user)
    return try await write { connection in
      try await connection.insertUser(user)
      try await connection.saveCredential(credential)
      return user
    }
  }

  public func setCredential(_ credential: PasswordCredential) async throws {
    try await write { connection in
      try await connection.lockUser(credential.userID)
      try await connection.saveCredential(credential)
    }
  }

  public func credential(for user: UUID) async throws -> PasswordCredential? {
    try await read { connection in
      try await connection.rows("SELECT * FROM user_credentials WHERE user_id = \(user)").first.map(Self.credential)
    }
  }

  public func ownerID() async throws -> UUID? {
    try await read { connection in
      try await connection.values("SELECT user_id FROM user_credentials WHERE role = 'owner'", as: UUID.self).first
    }
  }

  static func credential(_ row: PostgresRandomAccessRow) throws -> PasswordCredential {
    let userID = try row["user_id"].decode(UUID.self)
    let what = "credential of user \(userID.storeText)"
    let updatedAt = try Stored.instant(try PostgresRows.text(row, "updated_at"), "\(what) updated_at")
    let roleText = try PostgresRows.text(row, "role")
    guard let role = AccountRole(rawValue: roleText) else {
      throw StoreError.corrupt("\(what) role '\(roleText)' is not owner or member")
    }
    let hash = try PostgresRows.text(row, "password_hash")
    return try Stored.valid(what) { () throws(ValidationError) in
      try PasswordCredential(userID: userID, passwordHash: hash, role: role, updatedAt: updatedAt)
    }
  }
}

extension PostgresConnection {
  /// Sets the credential; a second owner is refused here and, should two set-ups race on two
  /// instances, by the `one_owner` index.
  func saveCredential(_ credential: PasswordCredential) async throws {
    if credential.role == .owner {
      let others = try await exists(
        "SELECT EXISTS (SELECT 1 FROM user_credentials WHERE role = 'owner' AND user_id <> \(credential.userID))")
      guard !others else { throw StoreError.conflict("this server already has an owner") }
    }
    do {
      try await run(
        """
        INSERT INTO user_credentials (user_id, password_hash, role, updated_at)
        VALUES (\(credential.userID), \(credential.passwordHash), \(credential.role.rawValue),
          \(InstantText.text(credential.updatedAt)))
        ON CONFLICT (user_id) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
          updated_at = excluded.updated_at
        """)
    } catch let error as PSQLError where error.serverInfo?[.constraintName] == "one_owner" {
      throw StoreError.conflict("this server already has an owner")
    }
  }
}
