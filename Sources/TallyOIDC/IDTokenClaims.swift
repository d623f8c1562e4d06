import Foundation
import JWTKit

/// The claims of an ID token Tally reads (OpenID Connect Core §2 and §5.1). Every one is
/// optional here, so a missing claim is named by ``IDTokenVerifier`` rather than lost in a
/// decoding error. The claims the checks rest on must have their registered types; profile
/// claims are read leniently, since providers differ (`email_verified` as the string "true",
/// `groups` as one string), and one that cannot be read is absent.
struct IDTokenClaims: JWTPayload {
  var issuer: String?
  var subject: String?
  var audience: AudienceClaim?
  var authorizedParty: String?
  var expiration: ExpirationClaim?
  var issuedAt: IssuedAtClaim?
  var notBefore: NotBeforeClaim?
  var nonce: String?
  var name: String?
  var preferredUsername: String?
  var email: String?
  var emailVerified: Bool?
  var groups: [String]?

  enum CodingKeys: String, CodingKey {
    case issuer = "iss", subject = "sub", audience = "aud", authorizedParty = "azp"
    case expiration = "exp", issuedAt = "iat", notBefore = "nbf", nonce
    case name, preferredUsername = "preferred_username", email, emailVerified = "email_verified", groups
  }

  init(from decoder: any Decoder) throws {
    let claims = try decoder.container(keyedBy: CodingKeys.self)
    issuer = try claims.decodeIfPresent(String.self, forKey: .issuer)
    subject = try claims.decodeIfPresent(String.self, forKey: .subject)
    audience = try claims.decodeIfPresent(AudienceClaim.self, forKey: .audience)
    authorizedParty = try claims.decodeIfPresent(String.self, forKey: .authorizedParty)
    expiration = try claims.decodeIfPresent(ExpirationClaim.self, forKey: .expiration)
    issuedAt = try claims.decodeIfPresent(IssuedAtClaim.self, forKey: .issuedAt)
    notBefore = try claims.decodeIfPresent(NotBeforeClaim.self, forKey: .notBefore)
    nonce = try claims.decodeIfPresent(String.self, forKey: .nonce)
    name = try? claims.decodeIfPresent(String.self, forKey: .name)
    preferredUsername = try? claims.decodeIfPresent(String.self, forKey: .preferredUsername)
    email = try? claims.decodeIfPresent(String.self, forKey: .email)
    emailVerified =
      (try? claims.decodeIfPresent(Bool.self, forKey: .emailVerified))
      ?? (try? claims.decodeIfPresent(String.self, forKey: .emailVerified)).flatMap { Bool($0.lowercased()) }
    groups =
      (try? claims.decodeIfPresent([String].self, forKey: .groups))
      ?? (try? claims.decodeIfPresent(String.self, forKey: .groups)).map { [$0] }
  }

  /// Nothing: jwt-kit calls this after the signature, but the claims are checked by
  /// ``IDTokenVerifier`` against the injected clock, each with its own message.
  func verify(using algorithm: some JWTAlgorithm) async throws {}
}
