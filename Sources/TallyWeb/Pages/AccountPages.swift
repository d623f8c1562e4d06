import Foundation
import Hummingbird
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyOIDC
import TallyStore

/// First run (the owner's account), sign-in and sign-out, as pages and plain form posts.
struct AccountPages {
  let services: AppServices

  struct Credentials: Decodable {
    var name: String
    var password: String
    var next: String?
    var timeZone: String?
  }

  func addRoutes(to router: Router<AppRequestContext>) {
    router.get("/", use: home)
    router.get("setup", use: setUpForm)
    router.post("setup", use: setUp)
    router.get("signin", use: signInForm)
    router.post("signin", use: signIn)
    router.post("signout", use: signOut)
    router.get("language", use: chooseLanguage)
  }

  @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
    if context.user != nil { return .seeOther("/today") }
    return .seeOther(try await services.accounts.needsSetUp() ? "/setup" : "/signin")
  }

  @Sendable func setUpForm(_ request: Request, context: AppRequestContext) async throws -> Response {
    guard try await services.accounts.needsSetUp() else { return .seeOther("/signin") }
    return try setUpPage(name: "", timeZone: "UTC", request: request, context: context)
  }

  /// Creates the owner and signs them in; a rejected form comes back with the name kept.
  @Sendable func setUp(_ request: Request, context: AppRequestContext) async throws -> Response {
    try services.refusePasswordsWhenProviderOnly()
    let form = try await request.decodeForm(Credentials.self, limit: services.configuration.maxBodySize)
    let timeZone = form.timeZone.flatMap { TimeZone(identifier: $0) == nil ? nil : $0 } ?? "UTC"
    do {
      let user = try await services.accounts.setUp(
        name: form.name, password: form.password, settings: UserSettings.newAccount(
          timeZone: timeZone, locale: LanguageNegotiation.locale(forAcceptLanguage: request.headers[.acceptLanguage])),
        at: services.clock())
      let session = try await services.accounts.openSession(for: user.id, at: services.clock())
      var response = Response.seeOther("/today")
      response.setCookie(services.sessionCookie(session.secret.secret, context: context))
      return response
    } catch {
      guard let problem = Problem.from(error) else { throw error }
      return try setUpPage(
        name: form.name, timeZone: timeZone, refusal: (error, form.password), request: request, context: context,
        status: problem.status)
    }
  }

  @Sendable func signInForm(_ request: Request, context: AppRequestContext) async throws -> Response {
    if try await services.accounts.needsSetUp() { return .seeOther("/setup") }
    let next = Self.safeNext(request.uri.queryParameters["next"].map(String.init))
    if context.user != nil { return .seeOther(next) }
    return try signInPage(name: "", next: next, request: request, context: context)
  }

  @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
    let form = try await request.decodeForm(Credentials.self, limit: services.configuration.maxBodySize)
    let next = Self.safeNext(form.next)
    do {
      let result = try await services.signIn(
        name: form.name, password: form.password, address: context.clientAddress)
      var response = Response.seeOther(next)
      response.setCookie(services.sessionCookie(result.secret.secret, context: context))
      return response
    } catch {
      guard let problem = Problem.from(error) else { throw error }
      return try signInPage(
        name: form.name, next: next, refusal: (error, form.password), request: request, context: context,
        status: problem.status)
    }
  }

  @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
    if case .session(let session) = context.credential {
      try await services.accounts.signOut(session)
    }
    var response = Response.seeOther(try await providerSignOut(request: request, context: context) ?? "/signin")
    response.setCookie(services.sessionCookie("", context: context, maxAge: 0))
    if request.cookies[ProviderSignInPages.idTokenCookieName] != nil {
      response.setCookie(ProviderSignInPages.idTokenCookie("", context: context, maxAge: 0))
    }
    return response
  }

  /// A form that refused: the error and the password typed, which the reason's words need.
  typealias Refusal = (error: any Error, password: String)

  private func setUpPage(
    name: String, timeZone: String, refusal: Refusal? = nil, request: Request, context: AppRequestContext,
    status: HTTPResponse.Status = .ok
  ) throws -> Response {
    try formPage(
      setUp: true, name: name, next: "/today", timeZone: timeZone, refusal: refusal, request: request,
      context: context, status: status)
  }

  private func signInPage(
    name: String, next: String, refusal: Refusal? = nil, request: Request, context: AppRequestContext,
    status: HTTPResponse.Status = .ok
  ) throws -> Response {
    try formPage(
      setUp: false, name: name, next: next, timeZone: "UTC", refusal: refusal, request: request, context: context,
      status: status)
  }

  /// Both forms, in the visitor's language, a refusal worded in it too.
  private func formPage(
    setUp: Bool, name: String, next: String, timeZone: String, refusal: Refusal?, request: Request,
    context: AppRequestContext, status: HTTPResponse.Status
  ) throws -> Response {
    let speech = PageLanguages.speech(for: request, user: context.user)
    let error = refusal.flatMap { SignInForm.reason($0.error, form: name, password: $0.password, speech: speech) }
    return try Self.formPage(
      setUp: setUp, speech: speech, name: name, next: next, timeZone: timeZone, error: error,
      provider: services.providerSignIn?.settings, request: request, status: status
    ).response(from: request, context: context)
  }

  static func formPage(
    setUp: Bool, speech: PageSpeech, name: String, next: String, timeZone: String, error: String?,
    provider: OIDCSettings?, request: Request, status: HTTPResponse.Status = .ok
  ) -> HTMLPage {
    let form = SignInForm(
      setUp: setUp, speech: speech, name: name, next: next, timeZone: timeZone, error: error, provider: provider)
    return Templates.shared.page(
      "signin", title: speech.translator.text(setUp ? "setUp.title" : "signIn.title"), section: nil, user: nil,
      request: request, content: form, status: status, speech: speech)
  }

  /// The language links' target: the choice kept in a cookie for a year (a device's, before
  /// anyone has an account to keep it in), then back to the form. An unknown code is a 422
  /// naming the codes there are.
  @Sendable func chooseLanguage(_ request: Request, context: AppRequestContext) async throws -> Response {
    let code = request.uri.queryParameters["code"].map(String.init) ?? ""
    do {
      // The pseudo-locale is a translator's tool (docs/translating.md): kept, never offered.
      if code != PseudoLocalization.code { _ = try Language(code: code) }
    } catch {
      return try ErrorPage.response(
        Problem(.unprocessableContent, error.description, field: "code"), user: context.user, request: request,
        context: context, back: "/signin")
    }
    var response = Response.seeOther(Self.safeNext(request.uri.queryParameters["next"].map(String.init)))
    response.setCookie(PageLanguages.deviceCookie(code: code, context: context))
    return response
  }

  /// Where a person signed in through the provider goes after Tally's session ends: the
  /// provider's `end_session_endpoint`, when it has one, so the provider's session ends too
  /// (OpenID Connect RP-Initiated Logout), then back to the sign-in page.
  private func providerSignOut(request: Request, context: AppRequestContext) async throws -> String? {
    guard let signIn = services.providerSignIn, let user = context.user,
      try await services.store.identities(for: user.id).contains(where: { $0.issuer == signIn.settings.client.issuer.text }),
      let endpoint = try? await signIn.client.endSessionEndpoint(),
      let origin = ChannelActions.baseURL(of: request, context: context),
      var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
    else { return nil }
    let hint = request.cookies[ProviderSignInPages.idTokenCookieName]?.value
    components.queryItems = (components.queryItems ?? []) + [
      URLQueryItem(name: "client_id", value: signIn.settings.client.clientID),
      URLQueryItem(name: "post_logout_redirect_uri", value: origin + "/signin"),
    ] + (hint.map { [URLQueryItem(name: "id_token_hint", value: $0)] } ?? [])
    return components.url?.absoluteString
  }

  /// Only a path on this site: `next` comes from a URL anyone can craft, and sending a
  /// freshly signed-in person to another site is how phishing pages borrow trust. Browsers
  /// drop tabs and line breaks from a URL, read `\` as `/`, and some decode `%2F`, so
  /// `/<TAB>/evil.example` is `//evil.example` to them: only printable ASCII without a
  /// backslash is taken, and the path must not start `//` even once percent-decoded.
  static func safeNext(_ next: String?) -> String {
    let fallback = "/today"
    guard let next, next.hasPrefix("/"),
      next.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\\" })
    else { return fallback }
    let decoded = next.removingPercentEncoding ?? next
    guard !decoded.hasPrefix("//"), !decoded.hasPrefix("/\\"),
      decoded.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
    else { return fallback }
    return next
  }
}
