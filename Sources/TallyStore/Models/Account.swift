import Foundation
import TallyCore

/// What a signed-in person may do beyond their own data.
public enum AccountRole: String, Codable, Sendable, CaseIterable {
  /// The first account: adds other accounts. A store has at most one.
  case owner
  case member
}

/// A user's password (as a bcrypt hash, never the password) and role: what lets a person sign
/// in to the server. A user made by the command line has none until one is set.
public struct PasswordCredential: Hashable, Codable, Sendable {
  public var userID: UUID
  public var passwordHash: String
  public var role: AccountRole
  public var updatedAt: Date

  public init(userID: UUID, passwordHash: String, role: AccountRole, updatedAt: Date)
    throws(ValidationError)
  {
    // A bcrypt hash is `$2b$12$` and 53 characters of salt and digest.
    guard passwordHash.hasPrefix("$2"), (59...60).contains(passwordHash.utf8.count) else {
      throw ValidationError(field: "password hash", rule: "must be a bcrypt hash, never the password")
    }
    self.userID = userID
    self.passwordHash = passwordHash
    self.role = role
    self.updatedAt = StoredInstant.normalized(updatedAt)
  }
}

extension PasswordCredential {
  /// This credential given to `user`, as a new account stores it.
  public func naming(_ user: User) -> PasswordCredential {
    var credential = self
    credential.userID = user.id
    return credential
  }
}
