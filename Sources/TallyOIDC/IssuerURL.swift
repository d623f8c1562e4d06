import Foundation

/// The provider's issuer identifier, checked once: an absolute URL without query or fragment
/// (OpenID Connect Discovery §2), over https, or plain http only on loopback, where a provider
/// on the same machine or a test has no certificate. `text` is kept exactly as configured: the
/// discovery document and every ID token must name the issuer to the character.
public struct IssuerURL: Sendable, Hashable {
  public let text: String

  public init(_ text: String) throws {
    func rejected(_ reason: String) -> OIDCError { .issuerRejected(issuer: clipped(text), reason: reason) }
    guard let url = URL(string: text), url.scheme != nil, url.host?.isEmpty == false else {
      throw rejected("is not an absolute URL such as https://id.example.org")
    }
    guard url.query == nil, url.fragment == nil else { throw rejected("has a query or a fragment") }
    guard Self.isSecure(url) else {
      throw rejected("is not https (plain http is allowed only on loopback: 127.0.0.1, ::1, localhost)")
    }
    self.text = text
  }

  /// Where discovery lives: `/.well-known/openid-configuration` after the issuer's path
  /// (Discovery §4), whether or not the issuer ends in a slash.
  public var discoveryURL: URL {
    let base = text.hasSuffix("/") ? String(text.dropLast()) : text
    return URL(string: base + "/.well-known/openid-configuration")!
  }

  /// Whether Tally may talk to `url`: https to any host, http only to loopback, where nothing
  /// crosses a network.
  static func isSecure(_ url: URL) -> Bool {
    guard let host = url.host, !host.isEmpty else { return false }
    switch url.scheme?.lowercased() {
    case "https": return true
    case "http": return isLoopback(host)
    default: return false
    }
  }

  static func isLoopback(_ host: String) -> Bool {
    let bare = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return bare == "localhost" || bare == "127.0.0.1" || bare == "::1"
  }
}
