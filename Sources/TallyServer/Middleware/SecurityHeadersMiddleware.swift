import HTTPTypes
import Hummingbird
import TallyHTTP

/// Headers that make a browser refuse what the app never does: framing, sniffing content
/// types, loading scripts or styles from elsewhere, leaking the path to other sites.
struct SecurityHeadersMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  /// `--hsts`: tell browsers that reached Tally over HTTPS never to use plain HTTP here again.
  let hsts: Bool
  /// The policy with the provider's origins, when the server signs in through one.
  let providerPolicy: PagePolicy?

  /// A year, which browsers' preload rules ask for; not for subdomains, which Tally does not own.
  static let strictTransportSecurity = "max-age=31536000"


  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response = try await next(request, context)
    response.headers[.contentSecurityPolicy] = providerPolicy?.header ?? PagePolicy.standard
    response.headers[.xContentTypeOptions] = "nosniff"
    response.headers[.referrerPolicy] = "same-origin"
    response.headers[.xFrameOptions] = "DENY"
    // Only over HTTPS: on plain HTTP browsers ignore it (RFC 6797 8.1), and a proxy that has
    // not been trusted cannot turn it on for a host it does not serve.
    if hsts, context.overHTTPS {
      response.headers[.strictTransportSecurity] = Self.strictTransportSecurity
    }
    return response
  }
}

extension HTTPField.Name {
  static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
  static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
  static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
  static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!
  static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
