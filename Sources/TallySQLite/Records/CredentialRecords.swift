import Foundation
import GRDB
import TallyCore
import TallyStore

/// A row of `api_tokens`.
struct APITokenRecord: Codable, SignInRecord {
  static let databaseTableName = "api_tokens"
  static let noun = "an API token"

  var id: String
  var userID: String
  var tokenHash: String
  var name: String
  var createdAt: String
  var expiresAt: String?

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case id
    case userID = "user_id"
    case tokenHash = "token_hash"
    case name
    case createdAt = "created_at"
    case expiresAt = "expires_at"
  }

  typealias Columns = CodingKeys

  init(_ token: APIToken) {
    id = token.id.storeText
    userID = token.userID.storeText
    tokenHash = token.tokenHash
    name = token.name
    createdAt = InstantText.text(token.createdAt)
    expiresAt = token.expiresAt.map(InstantText.text)
  }

  static func notFound(_ id: UUID) -> StoreError { .notFound(.apiToken(id)) }

  func token() throws(StoreError) -> APIToken {
    let what = "API token \(id)"
    let id = try Stored.uuid(id, "api_tokens.id")
    let userID = try Stored.uuid(userID, "\(what) user_id")
    let createdAt = try Stored.instant(createdAt, "\(what) created_at")
    let expiresAt = try expiresAt.map { text throws(StoreError) in
      try Stored.instant(text, "\(what) expires_at")
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try APIToken(
        id: id, userID: userID, tokenHash: tokenHash, name: name, createdAt: createdAt,
        expiresAt: expiresAt)
    }
  }
}

/// A row of `sessions`.
struct SessionRecord: Codable, SignInRecord {
  static let databaseTableName = "sessions"
  static let noun = "a session"

  var id: String
  var userID: String
  var tokenHash: String
  var createdAt: String
  var expiresAt: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case id
    case userID = "user_id"
    case tokenHash = "token_hash"
    case createdAt = "created_at"
    case expiresAt = "expires_at"
  }

  typealias Columns = CodingKeys

  init(_ session: BrowserSession) {
    id = session.id.storeText
    userID = session.userID.storeText
    tokenHash = session.tokenHash
    createdAt = InstantText.text(session.createdAt)
    expiresAt = InstantText.text(session.expiresAt)
  }

  static func notFound(_ id: UUID) -> StoreError { .notFound(.session(id)) }

  func session() throws(StoreError) -> BrowserSession {
    let what = "session \(id)"
    let id = try Stored.uuid(id, "sessions.id")
    let userID = try Stored.uuid(userID, "\(what) user_id")
    let createdAt = try Stored.instant(createdAt, "\(what) created_at")
    let expiresAt = try Stored.instant(expiresAt, "\(what) expires_at")
    return try Stored.valid(what) { () throws(ValidationError) in
      try BrowserSession(
        id: id, userID: userID, tokenHash: tokenHash, createdAt: createdAt, expiresAt: expiresAt)
    }
  }
}

/// A row of `reminder_deliveries`.
struct ReminderDeliveryRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "reminder_deliveries"

  var userID: String
  var occurrenceKey: String
  var habitID: String
  var sentAt: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case userID = "user_id"
    case occurrenceKey = "occurrence_key"
    case habitID = "habit_id"
    case sentAt = "sent_at"
  }

  typealias Columns = CodingKeys
}
