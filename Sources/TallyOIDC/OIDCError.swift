import Foundation

/// Why a sign-in through the identity provider did not happen, in sentences a person (or the
/// log) reads. No case carries a secret; text that came from the provider is clipped.
public enum OIDCError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The configured issuer cannot be used; `reason` completes "The OpenID Connect issuer … ".
  case issuerRejected(issuer: String, reason: String)
  /// The provider could not be reached at `url` (refused, timed out, name unknown …).
  case providerUnreachable(url: String, reason: String)
  /// The provider's answer from `url` was longer than Tally reads.
  case answerTooLarge(url: String, limit: Int)
  /// The discovery document at `url` cannot be used; `reason` completes "… document at URL ".
  case discoveryRejected(url: String, reason: String)
  /// The key set at `url` cannot be used.
  case keySetRejected(url: String, reason: String)
  /// The token endpoint refused the code: a wrong PKCE verifier, a code expired or used
  /// already, a wrong client secret.
  case tokenRequestRefused(status: Int, error: String?, detail: String?)
  /// The token endpoint answered, but not with what the code flow needs.
  case tokenResponseRejected(reason: String)
  /// The ID token failed a check.
  case idTokenRefused(IDTokenRefusal)
  /// The callback carries no `state`.
  case stateMissing
  /// The callback's `state` is not the one this browser was given (login cross-site request
  /// forgery: someone else's sign-in pushed into this browser).
  case stateFromAnotherBrowser
  /// The `state` names no sign-in in progress: finished already (a replay), expired, or never begun.
  case stateUnknown
  /// The provider sent the person back with an error such as `access_denied`.
  case providerDeclined(error: String, detail: String?)
  /// The callback cannot be used; `reason` completes "The sign-in callback … ".
  case callbackRejected(reason: String)

  public var description: String {
    switch self {
    case .issuerRejected(let issuer, let reason):
      "The OpenID Connect issuer \(issuer) \(reason)."
    case .providerUnreachable(let url, let reason):
      "The identity provider could not be reached at \(url): \(reason)."
    case .answerTooLarge(let url, let limit):
      "The identity provider's answer from \(url) is longer than \(limit) bytes."
    case .discoveryRejected(let url, let reason):
      "The identity provider's discovery document at \(url) \(reason)."
    case .keySetRejected(let url, let reason):
      "The identity provider's key set at \(url) \(reason)."
    case .tokenRequestRefused(let status, let error, let detail):
      "The identity provider refused the sign-in code (HTTP \(status)\(Self.detail(error, detail)))."
    case .tokenResponseRejected(let reason):
      "The identity provider's token response \(reason)."
    case .idTokenRefused(let refusal):
      "The identity provider's ID token was refused: \(refusal)."
    case .stateMissing:
      "The sign-in callback has no state; start signing in again."
    case .stateFromAnotherBrowser:
      "The sign-in callback was not started in this browser; start signing in again."
    case .stateUnknown:
      "The sign-in callback names no sign-in in progress (finished already, or older than its time limit); start signing in again."
    case .providerDeclined(let error, let detail):
      "The identity provider did not sign you in (\(error)\(detail.map { ": \($0)" } ?? ""))."
    case .callbackRejected(let reason):
      "The sign-in callback \(reason)."
    }
  }

  private static func detail(_ error: String?, _ detail: String?) -> String {
    [error, detail].compactMap { $0 }.map { ", \($0)" }.joined()
  }
}

/// Text from the provider or the browser, cut to `limit` characters before it enters a message.
func clipped(_ text: String, to limit: Int = 200) -> String {
  text.count <= limit ? text : String(text.prefix(limit)) + "…"
}
