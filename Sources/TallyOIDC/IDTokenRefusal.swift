import Foundation

/// Which check an ID token failed (OpenID Connect Core §3.1.3.7). `description` completes
/// "The identity provider's ID token was refused: … ".
public enum IDTokenRefusal: Equatable, Sendable, CustomStringConvertible {
  case malformed(String)
  case algorithmNotAllowed(String)
  case criticalHeader
  case unknownKey(kid: String?)
  case ambiguousKey
  case keyUnusable(kid: String?, reason: String)
  case badSignature
  case missingClaim(String)
  case wrongIssuer(expected: String, found: String)
  case wrongAudience(clientID: String, found: [String])
  case wrongAuthorizedParty(clientID: String, found: String?)
  case expired(Date)
  case notYetValid(Date)
  case issuedInFuture(Date)
  case nonceMismatch
  case subjectTooLong(bytes: Int)

  public var description: String {
    switch self {
    case .malformed(let reason):
      "it is not a readable JWT (\(reason))"
    case .algorithmNotAllowed(let alg):
      "it is signed with alg \(clipped(alg, to: 20)); only \(SigningAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")) are accepted"
    case .criticalHeader:
      "its header names critical extensions (crit) Tally does not know"
    case .unknownKey(let kid):
      "its key \(Self.named(kid)) is not in the provider's current key set"
    case .ambiguousKey:
      "it names no key (kid) and the provider's key set holds several that fit"
    case .keyUnusable(let kid, let reason):
      "its key \(Self.named(kid)) cannot be used (\(reason))"
    case .badSignature:
      "its signature does not match the provider's key"
    case .missingClaim(let name):
      "it has no \(name) claim"
    case .wrongIssuer(let expected, let found):
      "it was issued by \(clipped(found)), not \(expected)"
    case .wrongAudience(let clientID, let found):
      "it is meant for \(clipped(found.joined(separator: ", "))), not the client \(clientID)"
    case .wrongAuthorizedParty(let clientID, let found):
      "it names several audiences and its authorized party (azp) is \(found.map { clipped($0) } ?? "missing"), not the client \(clientID)"
    case .expired(let date):
      "it expired at \(date.formatted(.iso8601))"
    case .notYetValid(let date):
      "it is not valid before \(date.formatted(.iso8601))"
    case .issuedInFuture(let date):
      "it says it was issued at \(date.formatted(.iso8601)), in the future"
    case .nonceMismatch:
      "its nonce is not the one this sign-in sent"
    case .subjectTooLong(let bytes):
      "its subject (sub) is \(bytes) bytes long; OpenID Connect allows 255"
    }
  }

  private static func named(_ kid: String?) -> String {
    kid.map { "(kid \(clipped($0, to: 80)))" } ?? "(no kid)"
  }
}
