import Crypto
import Foundation
import TallyCore
import JWTKit

/// The server's VAPID identity (RFC 8292): a P-256 key pair the push service ties a
/// subscription to. The browser subscribes with the public key; every POST carries a JWT
/// signed with the private one.
public struct VAPIDKey: Sendable {
  public let privateKey: P256.Signing.PrivateKey

  public init() {
    privateKey = P256.Signing.PrivateKey()
  }

  /// From the 32 raw bytes the store keeps.
  public init(rawRepresentation: Data) throws {
    privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
  }

  public var rawRepresentation: Data { privateKey.rawRepresentation }

  /// The uncompressed public point, base64url: `applicationServerKey` for the browser and
  /// the `k` of the Authorization header.
  public var publicKeyText: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

  /// The claims of RFC 8292 §2: who may use the token (`aud`, the push service's origin),
  /// until when (`exp`, at most 24 hours ahead), and whom to contact (`sub`).
  struct Claims: JWTPayload {
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var sub: SubjectClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
  }

  /// The longest lifetime RFC 8292 §2 lets a push service accept.
  public static let maxLifetime: TimeInterval = 86_400

  /// `vapid t=<JWT>, k=<public key>` (RFC 8292 §3) for a POST to `endpoint`. The token lives
  /// 12 hours: well inside the 24-hour limit even with a push service's clock a little ahead.
  public func authorization(
    for endpoint: URL, subject: String, now: Date, lifetime: TimeInterval = 43_200
  ) async throws -> String {
    guard let origin = Self.origin(of: endpoint) else {
      throw PushEndpointError(reason: "has no scheme and host")
    }
    let keys = JWTKeyCollection()
    await keys.add(ecdsa: try ES256PrivateKey(backing: privateKey))
    let claims = Claims(
      aud: AudienceClaim(value: [origin]),
      exp: ExpirationClaim(value: Date(timeIntervalSince1970: (now.timeIntervalSince1970 + min(lifetime, Self.maxLifetime)).rounded(.down))),
      sub: SubjectClaim(value: subject))
    let token = try await keys.sign(claims, header: ["typ": "JWT"])
    return "vapid t=\(token), k=\(publicKeyText)"
  }

  /// Scheme, host and a port that is not the scheme's default: RFC 6454's serialised origin.
  static func origin(of url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
    if let port = url.port, port != defaultPort { return "\(scheme)://\(bracketed.lowercased()):\(port)" }
    return "\(scheme)://\(bracketed.lowercased())"
  }
}

/// An endpoint the sender cannot post to; `reason` completes "The endpoint …".
public struct PushEndpointError: Error, CustomStringConvertible {
  public let reason: String
  public var description: String { "The push endpoint \(reason)." }
}
