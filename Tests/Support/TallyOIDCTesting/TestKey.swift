import Crypto
import CryptoExtras
import Foundation
import TallyCore

/// A signing key of the test provider's: it signs with swift-crypto directly, not through
/// jwt-kit, so the client's verification is checked against a second implementation.
public struct TestKey: Sendable {
  public let kid: String
  public let alg: String
  /// What the provider publishes in its key set.
  public let jwk: [String: String]
  /// The public key as PEM: the "secret" of an HS256 forgery.
  public let publicPEM: String
  private let signer: @Sendable (Data) throws -> Data

  public func sign(_ input: Data) throws -> Data { try signer(input) }

  /// With the key's `alg` and `use` published, as Keycloak and Authentik do.
  public static func rs256(kid: String) throws -> TestKey {
    let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    let primitives = try key.publicKey.getKeyPrimitives()
    return TestKey(
      kid: kid, alg: "RS256",
      jwk: [
        "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
        "n": Base64URL.encode(primitives.modulus), "e": Base64URL.encode(primitives.publicExponent),
      ],
      publicPEM: key.publicKey.pemRepresentation,
      signer: { try key.signature(for: $0, padding: .insecurePKCS1v1_5).rawRepresentation })
  }

  /// Without `alg` or `use`, as some providers publish: the client must tell the key's fit
  /// from its type and curve.
  public static func es256(kid: String) -> TestKey {
    let key = P256.Signing.PrivateKey()
    let point = key.publicKey.x963Representation
    return TestKey(
      kid: kid, alg: "ES256",
      jwk: [
        "kty": "EC", "crv": "P-256", "kid": kid,
        "x": Base64URL.encode(point[1..<33]), "y": Base64URL.encode(point[33..<65]),
      ],
      publicPEM: key.publicKey.pemRepresentation,
      signer: { try key.signature(for: $0).rawRepresentation })
  }

  public static func edDSA(kid: String) -> TestKey {
    let key = Curve25519.Signing.PrivateKey()
    return TestKey(
      kid: kid, alg: "EdDSA",
      jwk: ["kty": "OKP", "crv": "Ed25519", "kid": kid, "use": "sig", "alg": "EdDSA", "x": Base64URL.encode(key.publicKey.rawRepresentation)],
      publicPEM: "",
      signer: { try key.signature(for: $0) })
  }

  /// Made once per test process: an RSA key takes a moment to generate.
  public static let rsa = try! rs256(kid: "rsa-1")
  public static let otherRSA = try! rs256(kid: "rsa-1")
  public static let ec = es256(kid: "ec-1")
  public static let ed = edDSA(kid: "ed-1")
}
