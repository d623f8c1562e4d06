import Foundation

/// What Tally keeps between sending a person to the provider and their return: the `state`
/// that finds it again, the `nonce` the ID token must carry back, the PKCE verifier, the
/// redirect URI the token request must repeat, what the server began it for, and when it
/// began. Codable, so a server may keep it wherever it keeps such things.
public struct PendingSignIn: Sendable, Hashable, Codable {
  public let state: String
  public let nonce: String
  public let pkce: PKCE
  public let redirectURI: String
  /// The server's own words for why the person went (signing in, accepting an invitation,
  /// linking an account): kept here, on the server, because a browser could rewrite them.
  public let purpose: String
  public let createdAt: Date

  public init(state: String, nonce: String, pkce: PKCE, redirectURI: String, purpose: String, createdAt: Date) {
    self.state = state
    self.nonce = nonce
    self.pkce = pkce
    self.redirectURI = redirectURI
    self.purpose = purpose
    self.createdAt = createdAt
  }

  /// Fresh secrets of 256 bits each: none can be guessed or told from another.
  public static func generate(
    at now: Date, redirectURI: String, purpose: String, using generator: inout some RandomNumberGenerator
  ) -> PendingSignIn {
    PendingSignIn(
      state: randomBase64URL(bytes: 32, using: &generator),
      nonce: randomBase64URL(bytes: 32, using: &generator),
      pkce: .generate(using: &generator),
      redirectURI: redirectURI, purpose: purpose, createdAt: now)
  }

  /// The provider's authorization endpoint with the query of OpenID Connect Core §3.1.2.1
  /// and RFC 7636 §4.3. A query the endpoint already has is kept (RFC 6749 §3.1).
  public func authorizationURL(endpoint: URL, clientID: String, scopes: [String]) -> URL {
    var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
    let query = FormEncoding.encode([
      ("response_type", "code"),
      ("client_id", clientID),
      ("redirect_uri", redirectURI),
      ("scope", scopes.joined(separator: " ")),
      ("state", state),
      ("nonce", nonce),
      ("code_challenge", pkce.challenge),
      ("code_challenge_method", "S256"),
    ])
    components.percentEncodedQuery = [components.percentEncodedQuery, query].compactMap { $0 }.joined(separator: "&")
    return components.url!
  }
}
