import Foundation
import JWTKit

/// Checks an ID token as OpenID Connect Core §3.1.3.7 asks: an allowed algorithm, a key from
/// the provider's set, the signature, then the claims against the configuration, the clock and
/// the nonce this sign-in sent. The claims are read only once the signature holds, so a forger
/// learns nothing from which check failed.
struct IDTokenVerifier: Sendable {
  let issuer: IssuerURL
  let clientID: String
  /// How far the provider's clock and Tally's may disagree.
  let leeway: TimeInterval

  /// OpenID Connect Core §2: `sub` "MUST NOT exceed 255 ASCII characters".
  static let maxSubjectBytes = 255

  func verify(_ token: String, nonce: String, at now: Date, keys: ProviderDirectory) async throws -> OIDCIdentity {
    let bytes = Array(token.utf8)
    let parsed: (header: JWTHeader, payload: IDTokenClaims, signature: Data)
    do {
      parsed = try DefaultJWTParser().parse(bytes, as: IDTokenClaims.self)
    } catch {
      throw refused(.malformed(clipped((error as? JWTError)?.reason ?? String(describing: error))))
    }
    let header = parsed.header
    guard let alg = header.alg else { throw refused(.malformed("its header has no alg")) }
    guard let algorithm = SigningAlgorithm(rawValue: alg) else { throw refused(.algorithmNotAllowed(alg)) }
    guard header.fields["crit"] == nil else { throw refused(.criticalHeader) }
    let key = try await signingKey(kid: header.kid, algorithm: algorithm, keys: keys)
    try await checkSignature(bytes, key: key, kid: header.kid, algorithm: algorithm)
    return try identity(from: parsed.payload, nonce: nonce, at: now)
  }

  /// The key the token names, from the kept set or, when that set was fetched earlier and does
  /// not hold it, from the set fetched once more: the provider may have rotated its keys. Never
  /// more than once per token, and a token naming no key fits only a set with one key for it.
  private func signingKey(kid: String?, algorithm: SigningAlgorithm, keys: ProviderDirectory) async throws -> JWK {
    let (kept, fetchedNow) = try await keys.currentKeys()
    var match = kept.key(kid: kid, algorithm: algorithm)
    if case .missing = match, !fetchedNow {
      match = try await keys.refetchKeys().key(kid: kid, algorithm: algorithm)
    }
    switch match {
    case .found(let key): return key
    case .missing: throw refused(.unknownKey(kid: kid))
    case .ambiguous: throw refused(.ambiguousKey)
    }
  }

  /// jwt-kit checks the signature with a collection holding this one key, made for the
  /// token's algorithm: its own lookup would otherwise fall back to a default key when the
  /// `kid` is unknown, and would use a key with whatever algorithm it was first made for.
  private func checkSignature(_ token: [UInt8], key: JWK, kid: String?, algorithm: SigningAlgorithm) async throws {
    var chosen = key
    chosen.algorithm = JWK.Algorithm(rawValue: algorithm.rawValue)
    chosen.keyIdentifier = JWKIdentifier(string: kid ?? "published")
    let collection = JWTKeyCollection()
    do {
      try await collection.add(jwk: chosen)
    } catch {
      throw refused(.keyUnusable(kid: kid, reason: clipped((error as? JWTError)?.reason ?? String(describing: error))))
    }
    do {
      _ = try await collection.verify(token, as: IDTokenClaims.self)
    } catch {
      throw refused(.badSignature)
    }
  }

  private func identity(from claims: IDTokenClaims, nonce: String, at now: Date) throws -> OIDCIdentity {
    guard let iss = claims.issuer else { throw refused(.missingClaim("iss")) }
    guard iss == issuer.text else { throw refused(.wrongIssuer(expected: issuer.text, found: iss)) }
    guard let sub = claims.subject, !sub.isEmpty else { throw refused(.missingClaim("sub")) }
    guard sub.utf8.count <= Self.maxSubjectBytes else { throw refused(.subjectTooLong(bytes: sub.utf8.count)) }
    guard let audience = claims.audience?.value, !audience.isEmpty else { throw refused(.missingClaim("aud")) }
    guard audience.contains(clientID) else { throw refused(.wrongAudience(clientID: clientID, found: audience)) }
    if audience.count > 1 || claims.authorizedParty != nil, claims.authorizedParty != clientID {
      throw refused(.wrongAuthorizedParty(clientID: clientID, found: claims.authorizedParty))
    }
    guard let expiration = claims.expiration?.value else { throw refused(.missingClaim("exp")) }
    guard now.timeIntervalSince(expiration) <= leeway else { throw refused(.expired(expiration)) }
    guard let issuedAt = claims.issuedAt?.value else { throw refused(.missingClaim("iat")) }
    guard issuedAt.timeIntervalSince(now) <= leeway else { throw refused(.issuedInFuture(issuedAt)) }
    if let notBefore = claims.notBefore?.value, notBefore.timeIntervalSince(now) > leeway {
      throw refused(.notYetValid(notBefore))
    }
    guard let sentBack = claims.nonce else { throw refused(.missingClaim("nonce")) }
    guard sentBack == nonce else { throw refused(.nonceMismatch) }
    return OIDCIdentity(
      issuer: iss, subject: sub, name: claims.name, preferredUsername: claims.preferredUsername,
      email: claims.email, emailVerified: claims.emailVerified, groups: claims.groups ?? [])
  }

  private func refused(_ refusal: IDTokenRefusal) -> OIDCError { .idTokenRefused(refusal) }
}
