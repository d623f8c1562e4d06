import Foundation
import HTTPTypes
import Hummingbird
import TallyHTTP

/// Refuses a change that a browser sent on behalf of another site. Browsers name the page's
/// origin on every cross-origin write (`Origin`, `Sec-Fetch-Site`); a request with a bearer
/// token is from a script, which a cookie-stealing page cannot forge, so it is let through.
struct CrossSiteRequestMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext

  static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if !Self.safeMethods.contains(request.method), request.headers[.authorization] == nil,
      !Self.isSameOrigin(request, scheme: context.scheme)
    {
      throw Problem(
        .forbidden,
        "Cross-site requests cannot change data: send this from Tally's own pages or with an API token.")
    }
    return try await next(request, context)
  }

  /// `Origin` must be the request's own scheme, host and port (RFC 6454 compares all three);
  /// without `Origin`, `Sec-Fetch-Site` must not say another site. A client that sends neither
  /// is not a browser. `scheme` is how the person reached Tally (``AppRequestContext/scheme``).
  static func isSameOrigin(_ request: Request, scheme: String) -> Bool {
    if let origin = request.headers[.origin] {
      guard let host = request.headers[HTTPField.Name("Host")!] ?? request.head.authority,
        let own = Origin(scheme: scheme, authority: host),
        let theirs = Origin(origin)
      else { return false }
      return own == theirs
    }
    if let site = request.headers[.secFetchSite] {
      return site == "same-origin" || site == "none"
    }
    return true
  }
}

/// A web origin: scheme, host and port, the port filled in from the scheme when left out.
struct Origin: Equatable {
  var scheme: String
  var host: String
  var port: Int

  /// `scheme://host[:port]` as browsers send it in `Origin`; anything else (a path, `null`)
  /// is no origin.
  init?(_ text: String) {
    guard let separator = text.range(of: "://") else { return nil }
    self.init(scheme: String(text[..<separator.lowerBound]), authority: String(text[separator.upperBound...]))
  }

  init?(scheme: String, authority: String) {
    let scheme = scheme.lowercased()
    guard scheme == "http" || scheme == "https", !authority.isEmpty,
      !authority.contains(where: { "/?#@\\".contains($0) || $0.isWhitespace })
    else { return nil }
    var host = Substring(authority.lowercased())
    var port = scheme == "https" ? 443 : 80
    // The port follows the last colon, unless that colon is inside an IPv6 literal.
    if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
      guard let number = Int(host[host.index(after: colon)...]), (1...65535).contains(number) else { return nil }
      port = number
      host = host[..<colon]
    }
    guard !host.isEmpty else { return nil }
    self.scheme = scheme
    self.host = String(host)
    self.port = port
  }
}
