import JWTKit

/// The ID token signatures Tally accepts: the three that providers people run publish keys
/// for. `none` and the HMAC family are absent on purpose: with HS256 a token "signed" with the
/// provider's public key would pass for genuine.
public enum SigningAlgorithm: String, CaseIterable, Sendable {
  case rs256 = "RS256"
  case es256 = "ES256"
  case edDSA = "EdDSA"

  /// Whether `key` is one this algorithm verifies with: the key type and curve it needs, and
  /// the key's own `alg`, when it names one, equal to this.
  func fits(_ key: JWK) -> Bool {
    if let declared = key.algorithm, declared.rawValue != rawValue { return false }
    switch self {
    case .rs256: return key.keyType == .rsa
    case .es256: return key.keyType == .ecdsa && key.curve?.rawValue == "P-256"
    case .edDSA: return key.keyType == .octetKeyPair && key.curve?.rawValue == "Ed25519"
    }
  }
}
