import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyHTTP
import TallyStore

/// Finds who a request is from: a trusted proxy's header (when configured, and only from a
/// trusted proxy), a bearer token, or the session cookie, in that order. A bad token or an
/// unknown proxy name leaves the request signed out with the reason kept, so a route that needs
/// a user says exactly why it refused, while public routes (health, set-up) still answer; a
/// stale cookie just signs out. The user header from anyone but a trusted proxy is a 403.
struct AuthenticationMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  let services: AppServices
  /// `--trusted-user-header`, named once rather than on every request.
  let userHeader: HTTPField.Name?

  init(services: AppServices) {
    self.services = services
    userHeader = services.configuration.trustedUserHeader.flatMap { HTTPField.Name($0) }
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var context = context
    context.identity = try await identity(of: request, context: context)
    return try await next(request, context)
  }

  // Kept out of `handle`, whose async frame stays allocated for as long as the request is
  // answered (a live stream's whole life): the lookups' frames end before `next` runs, and the
  // frames after it reuse their space.
  @inline(never)
  private func identity(of request: Request, context: Context) async throws -> RequestIdentity? {
    let now = services.clock()
    if let userHeader, request.headers[userHeader] != nil, !context.viaTrustedProxy {
      // Whoever sent it could have named anyone: refused outright, so a proxy set up wrongly
      // shows at once instead of signing everyone out.
      throw Problem(
        .forbidden,
        "The \(userHeader.rawName) header signs people in only through a trusted proxy (--trusted-proxy); "
          + "this request came from \(context.clientAddress), which is not one.")
    }
    if let userHeader, let name = request.headers[userHeader], !name.isEmpty {
      if let user = try? await services.store.user(named: name) {
        return .signedIn(user, .trustedHeader)
      }
      if services.configuration.trustedUserCreate {
        return .signedIn(try await services.accounts.accountNamedByProxy(name, at: now), .trustedHeader)
      }
      return .refused(Problem(.unauthorized, "The proxy signed in '\(name)', who has no account here."))
    }
    if let authorization = request.headers[.authorization] {
      if let token = Self.bearerToken(authorization),
        let user = try await services.accounts.user(forAPIToken: token, at: now)
      {
        return .signedIn(user, .apiToken)
      }
      return .refused(Problem(.unauthorized, "The API token is unknown, revoked or expired."))
    }
    if let secret = request.cookies[AppServices.sessionCookieName]?.value,
      let (user, session) = try await services.accounts.user(forSession: secret, at: now)
    {
      return .signedIn(user, .session(session))
    }
    return nil
  }

  /// The token of `Bearer TOKEN` (the scheme in any case, RFC 9110 11.1), without the spaces
  /// around it; `nil` for another scheme. Written out, since every API request reads one:
  /// Foundation's trimming went through `NSString`, 3 % of an empty poll's server time.
  static func bearerToken(_ authorization: String) -> String? {
    guard authorization.prefix(7).lowercased() == "bearer " else { return nil }
    let token = authorization.dropFirst(7).drop(while: \.isWhitespace)
    guard let last = token.lastIndex(where: { !$0.isWhitespace }) else { return "" }
    return String(token[...last])
  }
}
