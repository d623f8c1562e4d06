import Foundation
import Hummingbird
import Logging
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyOIDC
import TallyStore

/// Sign-in through the OpenID Connect provider (docs/oidc.md): `/signin/oidc` sends the
/// browser to the provider, `/signin/oidc/callback` takes it back and opens a session;
/// Settings' "Link" sends a signed-in person the same way to link the two sign-ins. Every
/// refusal is a page that names what was wrong, and opens no session.
struct ProviderSignInPages {
  let services: AppServices

  static let stateCookieName = "tally_oidc_state"
  /// The ID token, kept for the provider's sign-out (`id_token_hint`), which then ends the
  /// provider's session without asking again.
  static let idTokenCookieName = "tally_oidc_id"
  static let callbackPath = "/signin/oidc/callback"

  /// What the person went to the provider for, kept with the pending sign-in on the server.
  struct Purpose: Codable, Equatable {
    var next: String?
    var timeZone: String?
    var invitation: String?
    var linkTo: UUID?
  }

  /// Sign-in's routes on `router`, open to anyone; Settings' behind the pages' middleware.
  func addRoutes(to router: Router<AppRequestContext>, pages: RouterGroup<AppRequestContext>) {
    router.get("signin/oidc", use: start)
    router.get("signin/oidc/callback", use: callback)
    pages.post("settings/oidc/link", use: link)
    pages.post("settings/invitations", use: invite)
  }

  /// The owner's new invitation: the link is shown this once, its secret kept nowhere.
  @Sendable func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
    _ = try provider()
    let user = try context.requireUser()
    guard try await services.store.credential(for: user.id)?.role == .owner else { throw Problem.ownerOnly }
    guard let origin = ChannelActions.baseURL(of: request, context: context) else {
      throw Problem(.badRequest, "The request names no Host, which the invitation link needs.")
    }
    let made = try await services.accounts.invite(by: user.id, at: services.clock())
    let formatter = SettingsModel.instantFormatter(try? user.settings.dayCalendar())
    let speech = PageLanguages.speech(for: request, user: context.user)
    let content = InviteLink(
      link: origin + "/signin/oidc?invite=" + made.secret.secret, expires: formatter.string(from: made.invitation.expiresAt),
      speech: speech)
    return try Templates.shared.page(
      "invite-link", title: content.title, section: .settings, user: user, request: request, content: content,
      status: .created, speech: speech
    ).response(from: request, context: context)
  }

  @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
    let signIn = try provider()
    let query = request.uri.queryParameters
    let purpose = Purpose(
      next: AccountPages.safeNext(query["next"].map(String.init)), timeZone: query["timeZone"].map { String($0.prefix(64)) },
      invitation: query["invite"].map { String($0.prefix(128)) })
    return try await redirect(to: signIn, for: purpose, request: request, context: context)
  }

  @Sendable func link(_ request: Request, context: AppRequestContext) async throws -> Response {
    let signIn = try provider()
    let user = try context.requireUser()
    return try await redirect(
      to: signIn, for: Purpose(next: "/settings#account", linkTo: user.id), request: request, context: context)
  }

  /// Counted as a password sign-in is, per client address: a refused callback is a try, an
  /// accepted one clears the count, so no one replays or forges callbacks at network speed.
  @Sendable func callback(_ request: Request, context: AppRequestContext) async throws -> Response {
    let signIn = try provider()
    let items = URLComponents(string: request.uri.description)?.queryItems ?? []
    let browserState = request.cookies[Self.stateCookieName]?.value
    let key = SignInThrottle.key(name: "\u{1}provider", address: context.clientAddress)
    var response: Response
    do {
      let attempt = try await services.throttle.attempt(key, at: services.clock())
      do {
        let finished = try await signIn.client.finish(CallbackParameters(queryItems: items), browserState: browserState)
        let purpose = (try? JSONDecoder().decode(Purpose.self, from: Data(finished.purpose.utf8))) ?? Purpose()
        response = try await arrive(
          finished.identity, purpose: purpose, rules: signIn.settings.rules, request: request, context: context)
        if finished.idToken.utf8.count <= 3072 {
          response.setCookie(Self.idTokenCookie(finished.idToken, context: context, maxAge: Int(services.accounts.sessionLifetime)))
        }
        await services.throttle.reset(key)
      } catch {
        // Only a verdict on the sign-in counts: not the provider or the database failing.
        if Problem.from(error).map({ $0.status == .badGateway || $0.status == .serviceUnavailable }) ?? true {
          await services.throttle.release(attempt)
        }
        throw error
      }
    } catch {
      guard let problem = Problem.from(error) else { throw error }
      context.logger.notice("sign-in through the provider refused", metadata: ["reason": "\(problem.detail)"])
      response = try refusal(problem, request: request, context: context)
    }
    response.setCookie(stateCookie("", context: context, maxAge: 0))
    return response
  }

  /// The person is who the provider says: link them, or open a session for their account.
  private func arrive(
    _ person: OIDCIdentity, purpose: Purpose, rules: ProviderAccountRules, request: Request, context: AppRequestContext
  ) async throws -> Response {
    let now = services.clock()
    if let userID = purpose.linkTo {
      // The session that began the link must still be the one coming back.
      guard context.user?.id == userID else { throw Problem(.forbidden, "Sign in again, then link from Settings.") }
      try await services.accounts.link(person, to: userID, at: now)
      return .seeOther(purpose.next ?? "/settings")
    }
    let user = try await services.accounts.account(
      for: person, rules: rules, invitation: purpose.invitation, timeZone: purpose.timeZone,
      locale: LanguageNegotiation.locale(forAcceptLanguage: request.headers[.acceptLanguage]), at: now)
    let session = try await services.accounts.openSession(for: user.id, at: now)
    var response = Response.seeOther(AccountPages.safeNext(purpose.next))
    response.setCookie(services.sessionCookie(session.secret.secret, context: context))
    return response
  }

  private func redirect(
    to signIn: ProviderSignIn, for purpose: Purpose, request: Request, context: AppRequestContext
  ) async throws -> Response {
    guard let origin = ChannelActions.baseURL(of: request, context: context) else {
      throw Problem(.badRequest, "The request names no Host, which the provider's redirect needs.")
    }
    let started: OIDCClient.Start
    do {
      started = try await signIn.client.start(
        redirectURI: origin + Self.callbackPath,
        purpose: String(decoding: try JSONEncoder().encode(purpose), as: UTF8.self))
    } catch let error as OIDCError {
      return try refusal(Problem.from(error)!, request: request, context: context)
    }
    var response = Response.seeOther(started.authorizationURL.absoluteString)
    response.setCookie(stateCookie(started.state, context: context, maxAge: 600))
    return response
  }

  /// A refused sign-in, as a page whose way back is the sign-in page.
  private func refusal(_ problem: Problem, request: Request, context: AppRequestContext) throws -> Response {
    var problem = problem
    if problem.status == .badGateway {
      problem.detail = "The sign-in provider cannot be reached now. " + problem.detail
    }
    return try ErrorPage.response(problem, user: nil, request: request, context: context, back: "/signin")
  }

  /// Sent back only to the callback, and with the provider's redirect (a top-level GET from
  /// another site), which `SameSite=Lax` allows.
  private func stateCookie(_ value: String, context: AppRequestContext, maxAge: Int) -> Cookie {
    Cookie(
      name: Self.stateCookieName, value: value, maxAge: maxAge, path: "/signin/oidc", secure: context.overHTTPS,
      httpOnly: true, sameSite: .lax)
  }

  /// Sent only with the sign-out form.
  static func idTokenCookie(_ value: String, context: AppRequestContext, maxAge: Int) -> Cookie {
    Cookie(
      name: idTokenCookieName, value: value, maxAge: maxAge, path: "/signout", secure: context.overHTTPS,
      httpOnly: true, sameSite: .lax)
  }

  private func provider() throws -> ProviderSignIn {
    guard let signIn = services.providerSignIn else { throw Problem(.notFound, "This server signs in with passwords only.") }
    return signIn
  }
}
