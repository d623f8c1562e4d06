import Foundation
import TallyCore

/// A person as an OpenID Connect provider knows them, linked to one user: the pair (`issuer`,
/// `subject`), never a name or an e-mail, which people change and some providers let anyone set.
public struct ProviderIdentity: Hashable, Sendable {
  public var issuer: String
  /// The provider's `sub`: at most 255 ASCII characters (OpenID Connect Core §2).
  public var subject: String
  public var userID: UUID
  public var createdAt: Date

  public static let issuerBytes = 1...2048
  public static let subjectBytes = 1...255

  public init(issuer: String, subject: String, userID: UUID, createdAt: Date) throws(ValidationError) {
    guard Self.issuerBytes.contains(issuer.utf8.count) else {
      throw ValidationError(field: "issuer", rule: "must be 1 to 2048 bytes")
    }
    guard Self.subjectBytes.contains(subject.utf8.count) else {
      throw ValidationError(field: "subject", rule: "must be 1 to 255 bytes")
    }
    try NulFreeText.check(issuer, field: "issuer")
    try NulFreeText.check(subject, field: "subject")
    self.issuer = issuer
    self.subject = subject
    self.userID = userID
    self.createdAt = StoredInstant.normalized(createdAt)
  }
}

extension ProviderIdentity {
  /// This identity given to `user`, as a new account stores it.
  public func naming(_ user: User) -> ProviderIdentity {
    var identity = self
    identity.userID = user.id
    return identity
  }
}

/// An owner's invitation to make an account at a first sign-in through the provider: a link
/// whose secret only its hash is kept of, taken once, before it expires.
public struct Invitation: Hashable, Sendable {
  public var tokenHash: String
  public var createdBy: UUID
  public var createdAt: Date
  public var expiresAt: Date

  public init(tokenHash: String, createdBy: UUID, createdAt: Date, expiresAt: Date) throws(ValidationError) {
    guard tokenHash.utf8.count == 64, tokenHash.utf8.allSatisfy({ Self.hexDigits.contains($0) }) else {
      throw ValidationError(field: "invitation hash", rule: "must be 64 lowercase hexadecimal digits")
    }
    guard expiresAt > createdAt else {
      throw ValidationError(field: "invitation", rule: "must expire after it is made")
    }
    self.tokenHash = tokenHash
    self.createdBy = createdBy
    self.createdAt = StoredInstant.normalized(createdAt)
    self.expiresAt = StoredInstant.normalized(expiresAt)
  }

  private static let hexDigits = Set("0123456789abcdef".utf8)
}
