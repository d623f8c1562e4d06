import Foundation
import TallyCore

/// A long-lived key a script sends as `Authorization: Bearer …`.
///
/// Only a hash of the secret is stored (``tokenHash``, the caller's hex digest); the secret is
/// shown once when the token is made and can never be read back.
public struct APIToken: ExpiringCredential, Identifiable, Hashable, Codable, Sendable {
  public var id: UUID
  public var userID: UUID
  public var tokenHash: String
  /// What the person called it, e.g. "backup script".
  public var name: String
  public var createdAt: Date
  /// `nil`: valid until deleted.
  public var expiresAt: Date?

  public init(
    id: UUID, userID: UUID, tokenHash: String, name: String, createdAt: Date, expiresAt: Date? = nil
  ) throws(ValidationError) {
    self.id = id
    self.userID = userID
    self.tokenHash = try Credential.validHash(tokenHash)
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard (1...100).contains(trimmed.count) else {
      throw ValidationError(
        field: "token name", rule: "must be 1 to 100 characters", kind: trimmed.isEmpty ? .empty : .tooLong,
        values: ["max": "100", "length": "\(trimmed.count)"])
    }
    try NulFreeText.check(trimmed, field: "token name")
    self.name = trimmed
    self.createdAt = StoredInstant.normalized(createdAt)
    self.expiresAt = expiresAt.map(StoredInstant.normalized)
  }

  /// Whether the token still opens the door at `now`.
  public func isValid(at now: Date) -> Bool {
    expiresAt.map { now < $0 } ?? true
  }
}

/// A signed-in browser: the cookie's secret is hashed exactly like an API token's.
public struct BrowserSession: ExpiringCredential, Identifiable, Hashable, Codable, Sendable {
  public var id: UUID
  public var userID: UUID
  public var tokenHash: String
  public var createdAt: Date
  public var expiresAt: Date

  public init(id: UUID, userID: UUID, tokenHash: String, createdAt: Date, expiresAt: Date)
    throws(ValidationError)
  {
    self.id = id
    self.userID = userID
    self.tokenHash = try Credential.validHash(tokenHash)
    self.createdAt = StoredInstant.normalized(createdAt)
    self.expiresAt = StoredInstant.normalized(expiresAt)
    guard self.createdAt < self.expiresAt else {
      throw ValidationError(field: "session", rule: "must expire after it is created")
    }
  }

  public func isValid(at now: Date) -> Bool { now < expiresAt }

  /// The session made again through its initializer: its fields are public and settable, so
  /// a store checks them before it writes.
  public func checked() throws(StoreError) -> BrowserSession {
    try StoreError.validating { () throws(ValidationError) in
      try BrowserSession(id: id, userID: userID, tokenHash: tokenHash, createdAt: createdAt, expiresAt: expiresAt)
    }
  }
}

extension APIToken {
  /// The token made again through its initializer, as ``BrowserSession/checked()``.
  public func checked() throws(StoreError) -> APIToken {
    try StoreError.validating { () throws(ValidationError) in
      try APIToken(id: id, userID: userID, tokenHash: tokenHash, name: name, createdAt: createdAt, expiresAt: expiresAt)
    }
  }
}

enum Credential {
  /// A hex digest (SHA-256 gives 64 digits); lower-cased so lookups compare exactly.
  static func validHash(_ hash: String) throws(ValidationError) -> String {
    let lower = hash.lowercased()
    guard (32...128).contains(lower.utf8.count),
      lower.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else {
      throw ValidationError(
        field: "token hash", rule: "must be a hex digest of 32 to 128 digits, never the token itself")
    }
    return lower
  }
}

/// A secret that stops opening the door at some instant: an API token or a session.
public protocol ExpiringCredential: Sendable {
  func isValid(at now: Date) -> Bool
}
