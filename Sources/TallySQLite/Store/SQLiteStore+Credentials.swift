import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Credentials

extension SQLiteStore {
  public func createAPIToken(_ token: APIToken) async throws -> APIToken {
    let token = try token.checked()
    return try await write { db in
      try db.requireUser(token.userID)
      try db.insertCredential(APITokenRecord(token))
      return token
    }
  }

  /// Every API request asks: kept in ``SignInCache``.
  public func apiToken(hash: String, at now: Date) async throws -> APIToken? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    try await catchUp()
    return try await signIns.valid(.token(hash: hash), at: now, orFind: {
      try await read { db in
        try (db.credential(hash: hash) as APITokenRecord?)?.token()
      }
    })
  }

  public func apiTokens(for user: UUID) async throws -> [APIToken] {
    try await read { db in
      try db.requireUser(user)
      return try APITokenRecord.filter(APITokenRecord.Columns.userID == user.storeText)
        .fetchAll(db)
        .map { record throws(StoreError) in try record.token() }
        .sorted(by: CredentialOrder.tokens)
    }
  }

  public func deleteAPIToken(id: UUID, for user: UUID) async throws {
    try await write { db in try db.deleteCredential(APITokenRecord.self, id: id, for: user) }
  }

  public func createSession(_ session: BrowserSession) async throws -> BrowserSession {
    let session = try session.checked()
    return try await write { db in
      try db.requireUser(session.userID)
      try db.insertCredential(SessionRecord(session))
      return session
    }
  }

  /// Every page asks, as every API request asks for its token: kept in ``SignInCache``.
  public func session(hash: String, at now: Date) async throws -> BrowserSession? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    try await catchUp()
    return try await signIns.valid(.session(hash: hash), at: now, orFind: {
      try await read { db in
        try (db.credential(hash: hash) as SessionRecord?)?.session()
      }
    })
  }

  public func deleteSession(id: UUID, for user: UUID) async throws {
    try await write { db in try db.deleteCredential(SessionRecord.self, id: id, for: user) }
  }

  public func deleteSessions(expiredAt now: Date) async throws -> Int {
    let cutoff = InstantText.text(now)
    return try await write { db in
      try SessionRecord.filter(SessionRecord.Columns.expiresAt <= cutoff).deleteAll(db)
    }
  }
}
