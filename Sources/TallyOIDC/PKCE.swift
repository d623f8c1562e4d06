import Crypto
import Foundation
import TallyCore

/// Proof Key for Code Exchange with S256 (RFC 7636): the verifier stays with Tally, its
/// SHA-256 travels in the authorization URL, and the token endpoint checks one against the
/// other, so a code stolen on its way back through the browser is useless on its own.
public struct PKCE: Sendable, Hashable, Codable {
  /// 43 base64url characters from 32 random bytes: the shortest RFC 7636 §4.1 allows, with
  /// 256 bits in it.
  public let verifier: String

  public init(verifier: String) {
    self.verifier = verifier
  }

  public static func generate(using generator: inout some RandomNumberGenerator) -> PKCE {
    PKCE(verifier: randomBase64URL(bytes: 32, using: &generator))
  }

  /// `BASE64URL(SHA256(verifier))`, RFC 7636 §4.2.
  public var challenge: String {
    Base64URL.encode(Data(SHA256.hash(data: Array(verifier.utf8))))
  }
}

/// `count` bytes from `generator`, base64url without padding. The system generator is a
/// cryptographic one on every platform Swift runs on.
func randomBase64URL(bytes count: Int, using generator: inout some RandomNumberGenerator) -> String {
  var bytes = [UInt8]()
  bytes.reserveCapacity(count + 8)
  while bytes.count < count {
    withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
  }
  return Base64URL.encode(bytes.prefix(count))
}
