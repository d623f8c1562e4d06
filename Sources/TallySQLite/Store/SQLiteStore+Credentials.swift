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
      guard try !APITokenRecord.exists(db, key: token.id.storeText) else {
        throw StoreError.conflict("an API token with id \(token.id.storeText) already exists")
      }
      guard
        try APITokenRecord.filter(APITokenRecord.Columns.tokenHash == token.tokenHash)
          .fetchCount(db) == 0
      else { throw StoreError.conflict("an API token with this hash already exists") }
      try APITokenRecord(token).insert(db)
      return token
    }
  }

  /// Every API request asks: kept in ``SignInCache``.
  public func apiToken(hash: String, at now: Date) async throws -> APIToken? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    try await catchUp()
    return try await signIns.valid(.token(hash: hash), at: now, orFind: {
      try await read { db in
        try APITokenRecord.fetchOne(
          db.cachedStatement(sql: "SELECT * FROM api_tokens WHERE token_hash = ?"), arguments: [hash]
        )?.token()
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
    try await write { db in
      typealias C = APITokenRecord.Columns
      let deleted = try APITokenRecord
        .filter(C.id == id.storeText && C.userID == user.storeText).deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.apiToken(id)) }
    }
  }

  public func createSession(_ session: BrowserSession) async throws -> BrowserSession {
    let session = try session.checked()
    return try await write { db in
      try db.requireUser(session.userID)
      guard try !SessionRecord.exists(db, key: session.id.storeText) else {
        throw StoreError.conflict("a session with id \(session.id.storeText) already exists")
      }
      guard
        try SessionRecord.filter(SessionRecord.Columns.tokenHash == session.tokenHash)
          .fetchCount(db) == 0
      else { throw StoreError.conflict("a session with this hash already exists") }
      try SessionRecord(session).insert(db)
      return session
    }
  }

  /// Every page asks, as every API request asks for its token: kept in ``SignInCache``.
  public func session(hash: String, at now: Date) async throws -> BrowserSession? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    try await catchUp()
    return try await signIns.valid(.session(hash: hash), at: now, orFind: {
      try await read { db in
        try SessionRecord.fetchOne(
          db.cachedStatement(sql: "SELECT * FROM sessions WHERE token_hash = ?"), arguments: [hash]
        )?.session()
      }
    })
  }

  public func deleteSession(id: UUID, for user: UUID) async throws {
    try await write { db in
      typealias C = SessionRecord.Columns
      let deleted = try SessionRecord
        .filter(C.id == id.storeText && C.userID == user.storeText).deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.session(id)) }
    }
  }

  public func deleteSessions(expiredAt now: Date) async throws -> Int {
    let cutoff = InstantText.text(now)
    return try await write { db in
      try SessionRecord.filter(SessionRecord.Columns.expiresAt <= cutoff).deleteAll(db)
    }
  }
}
