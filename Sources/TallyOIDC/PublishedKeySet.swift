import Foundation
import JWTKit

/// The provider's public keys as its `jwks_uri` publishes them (RFC 7517). A key Tally cannot
/// read (an encryption key, a curve jwt-kit does not know, a symmetric key) is passed over
/// rather than failing the set: providers publish such keys beside their signing keys.
struct PublishedKeySet: Sendable {
  let keys: [JWK]

  /// The key to check a token signed with `algorithm` that names `kid`.
  enum Match {
    case found(JWK)
    case missing
    /// No `kid` in the token and several keys fit: OpenID Connect Core §10.1 asks the
    /// provider for a `kid` then, and guessing would mean trying keys an attacker may choose.
    case ambiguous
  }

  static func parse(_ data: Data, from source: URL) throws -> PublishedKeySet {
    guard let set = try? JSONDecoder().decode(Document.self, from: data) else {
      throw OIDCError.keySetRejected(url: source.absoluteString, reason: "is not a JSON object with a keys array")
    }
    let keys = set.keys.compactMap { $0.usable }
    guard !keys.isEmpty else {
      throw OIDCError.keySetRejected(url: source.absoluteString, reason: "holds no signing key Tally can read")
    }
    return PublishedKeySet(keys: keys)
  }

  func key(kid: String?, algorithm: SigningAlgorithm) -> Match {
    let fitting = keys.filter { algorithm.fits($0) && (kid == nil || $0.keyIdentifier?.string == kid) }
    switch fitting.count {
    case 0: return .missing
    case 1: return .found(fitting[0])
    default: return kid == nil ? .ambiguous : .found(fitting[0])
    }
  }

  private struct Document: Decodable {
    let keys: [PublishedKey]
  }

  /// One entry of `keys`, read leniently: `usable` is nil for a key marked for encryption
  /// (`use: enc`) or one jwt-kit cannot read.
  private struct PublishedKey: Decodable {
    let usable: JWK?

    private enum CodingKeys: String, CodingKey { case use }

    init(from decoder: any Decoder) throws {
      let use = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .use)
      if use == nil || use == "sig" {
        usable = try? JWK(from: decoder)
      } else {
        usable = nil
      }
    }
  }
}
