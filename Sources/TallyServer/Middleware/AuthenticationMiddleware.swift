import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyStore

/// Finds who a request is from: a trusted proxy's header (when configured), a bearer token, or
/// the session cookie, in that order. A bad token is refused outright; a stale cookie just
/// leaves the request signed out.
struct AuthenticationMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  let services: AppServices

  static let sessionCookie = "tally_session"

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var context = context
    let now = services.clock()
    if let header = services.configuration.trustedUserHeader.flatMap({ HTTPField.Name($0) }),
      let name = request.headers[header], !name.isEmpty
    {
      guard let user = try? await services.store.user(named: name) else {
        throw Problem(.unauthorized, "The proxy signed in '\(name)', who has no account here.")
      }
      context.user = user
      context.credential = .trustedHeader
    } else if let authorization = request.headers[.authorization] {
      guard authorization.lowercased().hasPrefix("bearer "),
        let user = try await services.accounts.user(
          forAPIToken: String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces), at: now)
      else {
        throw Problem(.unauthorized, "The API token is unknown, revoked or expired.")
      }
      context.user = user
      context.credential = .apiToken
    } else if let secret = request.cookies[Self.sessionCookie]?.value,
      let (user, session) = try await services.accounts.user(forSession: secret, at: now)
    {
      context.user = user
      context.credential = .session(session)
    }
    return try await next(request, context)
  }
}
