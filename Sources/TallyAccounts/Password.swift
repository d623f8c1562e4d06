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
  /// Bcrypt reads only the first 72 bytes; a longer password would pass on its prefix alone.
  public static let bytes = 8...72

  public static func check(_ password: String) throws(ValidationError) {
    let count = password.utf8.count
    guard bytes.contains(count) else {
      throw ValidationError(
        field: "password",
        rule: "must be 8 to 72 bytes long (this one has \(count))")
    }
  }
}
