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

/// SHA-256 of the text's UTF-8, in lower-case hex. Every request with a token or a session
/// hashes one, so the 64 digits are written straight into the string.
func sha256Hex(_ text: String) -> String {
  let digest = SHA256.hash(data: Array(text.utf8))
  return String(unsafeUninitializedCapacity: 2 * SHA256.byteCount) { buffer in
    for (index, byte) in digest.enumerated() {
      buffer[2 * index] = hexDigits[Int(byte >> 4)]
      buffer[2 * index + 1] = hexDigits[Int(byte & 0x0f)]
    }
    return 2 * SHA256.byteCount
  }
}

private let hexDigits = Array("0123456789abcdef".utf8)
