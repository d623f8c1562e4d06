import Foundation
import HummingbirdBcrypt
import TallyCore

/// Hashes and checks passwords. Bcrypt is slow on purpose; tests use a low cost.
public struct PasswordHasher: Sendable {
  /// Bcrypt's work factor: 2^cost rounds. 12 takes a few hundred milliseconds per sign-in.
  public var cost: UInt8

  public init(cost: UInt8 = 12) {
    self.cost = cost
  }

  public func hash(_ password: String) -> String {
    Bcrypt.hash(password, cost: cost)
  }

  public func verify(_ password: String, against hash: String) -> Bool {
    Bcrypt.verify(password, hash: hash)
  }
}

/// What a password must be.
public enum PasswordRule {
  /// At least 8 characters (Unicode code points, as the API document counts), and no more than
  /// 72 bytes: bcrypt reads only the first 72, so a longer password would pass on its prefix.
  public static let characters = 8
  public static let bytes = 72

  public static func check(_ password: String) throws(ValidationError) {
    let count = password.unicodeScalars.count
    guard count >= characters else {
      throw ValidationError(field: "password", rule: "must be at least 8 characters long (this one has \(count))")
    }
    guard password.utf8.count <= bytes else {
      throw ValidationError(
        field: "password", rule: "must be at most 72 bytes long (this one has \(password.utf8.count))")
    }
  }
}
