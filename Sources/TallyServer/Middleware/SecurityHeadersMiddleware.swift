import HTTPTypes
import Hummingbird

/// Headers that make a browser refuse what the app never does: framing, sniffing content
/// types, loading scripts or styles from elsewhere, leaking the path to other sites.
struct SecurityHeadersMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext

  static let contentSecurityPolicy =
    "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; "
    + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response = try await next(request, context)
    response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
    response.headers[.xContentTypeOptions] = "nosniff"
    response.headers[.referrerPolicy] = "same-origin"
    response.headers[.xFrameOptions] = "DENY"
    return response
  }
}

extension HTTPField.Name {
  static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
  static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
  static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
  static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
  static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
