import Foundation

/// What Tally reads of the provider's discovery document (OpenID Connect Discovery §3): where
/// to send a person, where to exchange the code, where the signing keys are, and where to send
/// a person who signs out, if the provider says.
public struct ProviderMetadata: Sendable, Equatable {
  public let issuer: String
  public let authorizationEndpoint: URL
  public let tokenEndpoint: URL
  public let jwksURI: URL
  /// RP-initiated logout; kept only when it is a URL Tally may send a person to.
  public let endSessionEndpoint: URL?

  /// The largest discovery document or key set Tally reads; real ones are a few kilobytes.
  public static let maxDocumentBytes = 256 * 1024

  /// Reads the document fetched from `source` and checks it against the configured `issuer`:
  /// a document naming another issuer is refused (Discovery §4.3), as is an endpoint Tally
  /// could only reach over plain http across a network, where the code and the client secret
  /// would travel in the clear.
  public static func parse(_ data: Data, from source: URL, expecting issuer: IssuerURL) throws -> ProviderMetadata {
    func rejected(_ reason: String) -> OIDCError { .discoveryRejected(url: source.absoluteString, reason: reason) }
    guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
      throw rejected("is not a JSON object")
    }
    guard let named = fields["issuer"] as? String else { throw rejected("has no issuer") }
    guard named == issuer.text else { throw rejected("names the issuer \(clipped(named)), not \(issuer.text)") }
    func endpoint(_ name: String) throws -> URL {
      guard let text = fields[name] as? String else { throw rejected("has no \(name)") }
      guard let url = URL(string: text), IssuerURL.isSecure(url) else {
        throw rejected("gives a \(name) that is not an https URL (or http on loopback): \(clipped(text))")
      }
      return url
    }
    return ProviderMetadata(
      issuer: named,
      authorizationEndpoint: try endpoint("authorization_endpoint"),
      tokenEndpoint: try endpoint("token_endpoint"),
      jwksURI: try endpoint("jwks_uri"),
      endSessionEndpoint: (fields["end_session_endpoint"] as? String)
        .flatMap { URL(string: $0) }.flatMap { IssuerURL.isSecure($0) ? $0 : nil })
  }
}
