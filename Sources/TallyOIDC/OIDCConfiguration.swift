import Foundation

/// One provider and Tally's registration with it.
public struct OIDCConfiguration: Sendable {
  public var issuer: IssuerURL
  public var clientID: String
  public var clientSecret: String
  /// Where the provider sends a person back: Tally's `/signin/oidc/callback`, exactly as
  /// registered with the provider. A server reached at one address names it here; one that
  /// learns its address from each request passes it to ``OIDCClient/start(redirectURI:purpose:)``.
  public var redirectURI: String
  /// `openid` is always asked for; `groups` lets an owner admit people by group.
  public var scopes: [String]
  /// How far the provider's clock and Tally's may disagree when `exp`, `iat` and `nbf` are read.
  public var leeway: TimeInterval
  /// How long discovery and the key set are kept before they are fetched again.
  public var metadataMaxAge: TimeInterval

  public static let defaultScopes = ["openid", "profile", "email", "groups"]

  public init(
    issuer: IssuerURL, clientID: String, clientSecret: String, redirectURI: String,
    scopes: [String] = defaultScopes, leeway: TimeInterval = 60, metadataMaxAge: TimeInterval = 3600
  ) {
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.redirectURI = redirectURI
    self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    self.leeway = leeway
    self.metadataMaxAge = metadataMaxAge
  }
}
