import Foundation
import GRDB
import TallyCore
import TallyStore

/// A row of `user_credentials`.
struct UserCredentialRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "user_credentials"

  var userID: String
  var passwordHash: String
  var role: String
  var updatedAt: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case userID = "user_id"
    case passwordHash = "password_hash"
    case role
    case updatedAt = "updated_at"
  }

  typealias Columns = CodingKeys

  init(_ credential: PasswordCredential) {
    userID = credential.userID.storeText
    passwordHash = credential.passwordHash
    role = credential.role.rawValue
    updatedAt = InstantText.text(credential.updatedAt)
  }

  func credential() throws(StoreError) -> PasswordCredential {
    let what = "credential of user \(userID)"
    let userID = try Stored.uuid(userID, "user_credentials.user_id")
    let updatedAt = try Stored.instant(updatedAt, "\(what) updated_at")
    guard let role = AccountRole(rawValue: role) else {
      throw .corrupt("\(what) role '\(role)' is not owner or member")
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try PasswordCredential(userID: userID, passwordHash: passwordHash, role: role, updatedAt: updatedAt)
    }
  }
}
