import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyHTTP
import TallyStore

/// Set-up of the owner, sign-in and out, sign-up (when open) and who "me" is.
struct AccountController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("setup", use: setUpStatus)
    group.post("setup", use: setUp)
    group.post("signup", use: signUp)
    group.post("session", use: signIn)
    group.delete("session", use: signOut)
    group.get("me", use: me)
  }

  @Sendable func setUpStatus(_ request: Request, context: AppRequestContext) async throws
    -> JSONResponse<SetUpStatusJSON>
  {
    JSONResponse(
      SetUpStatusJSON(
        needsSetUp: try await services.accounts.needsSetUp(),
        signUpOpen: services.configuration.allowSignUp))
  }

  /// Creates the owner on a new server and signs them in.
  @Sendable func setUp(_ request: Request, context: AppRequestContext) async throws -> Response {
    try services.refusePasswordsWhenProviderOnly()
    let body = try await request.decodeJSON(CredentialsBody.self, limit: services.configuration.maxBodySize)
    let now = services.clock()
    let user = try await services.accounts.setUp(
      name: body.name, password: body.password, settings: try body.settings(for: request), at: now)
    return try await signedIn(user, role: .owner, request: request, context: context, status: .created)
  }

  @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> Response {
    try services.refusePasswordsWhenProviderOnly()
    guard services.configuration.allowSignUp else {
      throw Problem(.forbidden, "Sign-up is closed on this server; ask its owner for an account.")
    }
    let body = try await request.decodeJSON(CredentialsBody.self, limit: services.configuration.maxBodySize)
    guard try await !services.accounts.needsSetUp() else {
      throw Problem(.conflict, "This server has no owner yet: set it up first.")
    }
    let user = try await services.accounts.addUser(
      name: body.name, password: body.password, settings: try body.settings(for: request), at: services.clock())
    return try await signedIn(user, role: .member, request: request, context: context, status: .created)
  }

  /// Checks the password (throttled per name and address) and sets the session cookie.
  @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
    let body = try await request.decodeJSON(CredentialsBody.self, limit: services.configuration.maxBodySize)
    let result = try await services.signIn(name: body.name, password: body.password, address: context.clientAddress)
    let role = try await services.store.credential(for: result.user.id)?.role
    var response = try JSONResponse(AccountJSON(user: result.user, role: role))
      .response(from: request, context: context)
    response.setCookie(services.sessionCookie(result.secret.secret, context: context))
    return response
  }

  @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
    if case .session(let session) = context.credential {
      try await services.accounts.signOut(session)
    }
    var response = Response(status: .noContent)
    response.setCookie(services.sessionCookie("", context: context, maxAge: 0))
    return response
  }

  @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<AccountJSON> {
    let user = try context.requireUser()
    return JSONResponse(AccountJSON(user: user, role: try await services.store.credential(for: user.id)?.role))
  }

  private func signedIn(
    _ user: User, role: AccountRole, request: Request, context: AppRequestContext,
    status: HTTPResponse.Status
  ) async throws -> Response {
    let session = try await services.accounts.openSession(for: user.id, at: services.clock())
    var response = try JSONResponse(AccountJSON(user: user, role: role), status: status)
      .response(from: request, context: context)
    response.setCookie(services.sessionCookie(session.secret.secret, context: context))
    return response
  }
}

extension AccountJSON {
  init(user: User, role: AccountRole?) {
    self.init(id: user.id.storeText, name: user.name, role: role, settings: user.settings)
  }
}
