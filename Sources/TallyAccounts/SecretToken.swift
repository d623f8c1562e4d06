import Crypto
import Foundation
import TallyCore

/// A random secret handed to a client (a session cookie, an API token) and the hash the store
/// keeps instead: a stolen database opens no doors.
public struct SecretToken: Sendable, Hashable {
  /// What the client holds: 32 random bytes, base64url without padding.
  public let secret: String

  /// Prefixes tell a person which kind of secret they are looking at.
  public static let apiTokenPrefix = "tly_"

  public init(secret: String) {
    self.secret = secret
  }

  /// A fresh secret from `generator`.
  public static func generate(
    prefix: String = "", using generator: inout some RandomNumberGenerator
  ) -> SecretToken {
    var bytes = [UInt8]()
    bytes.reserveCapacity(32)
    for _ in 0..<4 {
      withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
    }
    return SecretToken(secret: prefix + Base64URL.encode(bytes))
  }

  /// SHA-256 of the secret, in lower-case hex: the only form a store ever sees.
  public var hash: String { sha256Hex(secret) }
}

/// SHA-256 of the text's UTF-8, in lower-case hex.
func sha256Hex(_ text: String) -> String {
  SHA256.hash(data: Data(text.utf8)).map { byte in
    let hex = String(byte, radix: 16)
    return byte < 16 ? "0" + hex : hex
  }.joined()
}
