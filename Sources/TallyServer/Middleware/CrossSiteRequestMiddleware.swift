import HTTPTypes
import Hummingbird

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
      !Self.isSameOrigin(request)
    {
      throw Problem(
        .forbidden,
        "Cross-site requests cannot change data: send this from Tally's own pages or with an API token.")
    }
    return try await next(request, context)
  }

  /// `Origin`'s host and port must be the request's own; without `Origin`, `Sec-Fetch-Site`
  /// must not say another site. A client that sends neither is not a browser.
  static func isSameOrigin(_ request: Request) -> Bool {
    if let origin = request.headers[.origin] {
      guard let host = request.headers[HTTPField.Name("Host")!] ?? request.head.authority else { return false }
      let stripped = origin.split(separator: "://", maxSplits: 1).last.map(String.init) ?? origin
      return stripped.lowercased() == host.lowercased()
    }
    if let site = request.headers[.secFetchSite] {
      return site == "same-origin" || site == "none"
    }
    return true
  }
}
