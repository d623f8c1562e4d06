import Foundation

/// The back-channel step of the code flow (OpenID Connect Core §3.1.3): the code and the PKCE
/// verifier go to the token endpoint with the client's credentials (`client_secret_basic`),
/// and the ID token comes back.
struct TokenExchange: Sendable {
  let clientID: String
  let clientSecret: String
  let redirectURI: String

  /// The largest token response Tally reads: an ID token with many groups is a few kilobytes.
  static let maxResponseBytes = 256 * 1024

  func request(code: String, verifier: String, endpoint: URL) -> ProviderRequest {
    let body = FormEncoding.encode([
      ("grant_type", "authorization_code"),
      ("code", code),
      ("redirect_uri", redirectURI),
      ("code_verifier", verifier),
    ])
    return ProviderRequest(
      method: .post, url: endpoint,
      headers: [
        "Authorization": basicAuthorization,
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept": "application/json",
      ],
      body: Data(body.utf8))
  }

  /// RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined and
  /// base64-encoded, so a `:` in either cannot move the split.
  var basicAuthorization: String {
    let pair = "\(FormEncoding.escape(clientID)):\(FormEncoding.escape(clientSecret))"
    return "Basic " + Data(pair.utf8).base64EncodedString()
  }

  /// The `id_token` of a successful answer, or the provider's refusal with its `error` and
  /// `error_description` (RFC 6749 §5.2) when there is one.
  static func idToken(from response: ProviderResponse) throws -> String {
    let fields = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
    guard response.status == 200 else {
      throw OIDCError.tokenRequestRefused(
        status: response.status,
        error: (fields?["error"] as? String).map { clipped($0, to: 80) },
        detail: (fields?["error_description"] as? String).map { clipped($0) })
    }
    guard let fields else { throw OIDCError.tokenResponseRejected(reason: "is not a JSON object") }
    guard let token = fields["id_token"] as? String, !token.isEmpty else {
      throw OIDCError.tokenResponseRejected(reason: "has no id_token (is the openid scope allowed for this client?)")
    }
    return token
  }
}
