import Foundation
import Hummingbird
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyOIDC
import TallyStore

/// The Settings screen: the user's settings (SPEC 1 and 5), this device's theme, API tokens,
/// export and import, and signing out. A refused form comes back as typed, with the error
/// beside its field, and nothing saved.
struct SettingsPages {
  let services: AppServices

  struct SettingsForm: Decodable {
    var timeZone: String
    var daySwitchHour: String
    var firstWeekday: String
    var locale: String
    /// Checkboxes: sent (as `on`) only when ticked.
    var showDatePickerGrid: String?
    var showGridDates: String?
  }

  struct ThemeForm: Decodable {
    var theme: String
  }

  /// A language's code, or empty for "as the browser asks".
  struct LanguageForm: Decodable {
    var language: String
  }

  struct TokenForm: Decodable {
    var name: String
    /// Days until the token stops working; empty for never.
    var lifetime: String?
  }

  /// The notices a redirect back to the page may ask for, by `?saved=`: their words are
  /// `settings.notice.<name>` in the catalogs.
  static let notices: Set = [
    "settings", "theme", "revoked", "feed-revoked", "webhook", "webhook-removed", "webhook-tested", "webhook-failed",
    "feed-tested", "push-tested", "push-failed", "push-gone", "push-removed", "push-added", "language",
  ]

  /// A year: the theme is a per-device preference, not a secret, and should outlive sessions.
  static let themeCookieAge = 365 * 24 * 3600

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("settings", use: page)
    group.post("settings", use: save)
    group.post("settings/theme", use: setTheme)
    group.post("settings/language", use: setLanguage)
    group.post("settings/tokens", use: createToken)
    group.post("settings/tokens/{id}/revoke", use: revokeToken)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let speech = PageLanguages.speech(for: request, user: user)
    let notice = request.uri.queryParameters["saved"].map(String.init).flatMap {
      Self.notices.contains($0) ? speech.translator.text("settings.notice.\($0)") : nil
    }
    return try await render(SettingsModel.Fields(user.settings), user: user, request: request, notice: notice)
  }

  /// Checks every field before saving any, so a refused form changes nothing.
  @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(SettingsForm.self, limit: services.configuration.maxBodySize)
    let fields = SettingsModel.Fields(
      timeZone: form.timeZone.trimmingCharacters(in: .whitespaces),
      daySwitchHour: form.daySwitchHour.trimmingCharacters(in: .whitespaces),
      firstWeekday: form.firstWeekday, locale: form.locale.trimmingCharacters(in: .whitespaces),
      showDatePickerGrid: form.showDatePickerGrid != nil, showGridDates: form.showGridDates != nil)
    let t = PageLanguages.speech(for: request, user: user).translator
    var errors = SettingsModel.Errors()
    if TimeZone(identifier: fields.timeZone) == nil {
      errors.timeZone = t.text("settings.error.timeZone", ["value": fields.timeZone])
    }
    let hour = Int(fields.daySwitchHour).flatMap { DayCalendar.daySwitchHours.contains($0) ? $0 : nil }
    if hour == nil {
      errors.daySwitchHour = t.text("settings.error.daySwitchHour", ["value": fields.daySwitchHour])
    }
    let weekday = Weekday(name: fields.firstWeekday)
    if weekday == nil {
      errors.firstWeekday = t.text("settings.error.firstWeekday", ["value": fields.firstWeekday])
    }
    do {
      _ = try UserSettings(timeZone: "UTC", locale: fields.locale).validated()
    } catch {
      errors.locale = t.text("settings.error.locale", ["value": fields.locale])
    }
    if errors.settingsCount == 0, let hour, let weekday {
      var settings = user.settings
      settings.timeZone = fields.timeZone
      settings.daySwitchHour = hour
      settings.firstWeekday = weekday
      settings.locale = fields.locale
      settings.showDatePickerGrid = fields.showDatePickerGrid
      settings.showGridDates = fields.showGridDates
      let checked = try settings.validated()
      if checked != user.settings {
        _ = try await services.store.updateSettings(checked, for: user.id)
      }
      return .seeOther("/settings?saved=settings")
    }
    return try await render(fields, errors: errors, user: user, request: request, status: .unprocessableContent)
      .response(from: request, context: context)
  }

  /// The theme lives in a cookie, not the account: a phone and a laptop may want different ones.
  @Sendable func setTheme(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(ThemeForm.self, limit: services.configuration.maxBodySize)
    guard let theme = Theme(rawValue: form.theme) else {
      var errors = SettingsModel.Errors()
      errors.theme = PageLanguages.speech(for: request, user: user).translator.text("settings.error.theme", ["value": form.theme])
      return try await render(
        SettingsModel.Fields(user.settings), errors: errors, user: user, request: request,
        status: .unprocessableContent
      ).response(from: request, context: context)
    }
    var response = Response.seeOther("/settings?saved=theme#appearance")
    response.setCookie(
      Cookie(
        name: Theme.cookie, value: theme.rawValue, maxAge: Self.themeCookieAge, path: "/", httpOnly: true,
        sameSite: .lax))
    return response
  }

  /// Kept in the account, so every device and every reminder speaks it; this device's cookie
  /// follows, so the sign-in page speaks it too after signing out.
  @Sendable func setLanguage(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(LanguageForm.self, limit: services.configuration.maxBodySize)
    let language: Language?
    do {
      language = form.language.isEmpty ? nil : try Language(code: form.language)
    } catch {
      var errors = SettingsModel.Errors()
      errors.language = PageLanguages.speech(for: request, user: user).translator.text(
        "settings.error.language", ["value": form.language])
      return try await render(
        SettingsModel.Fields(user.settings), errors: errors, user: user, request: request,
        status: .unprocessableContent
      ).response(from: request, context: context)
    }
    var settings = user.settings
    settings.language = language
    if settings != user.settings { _ = try await services.store.updateSettings(settings, for: user.id) }
    var response = Response.seeOther("/settings?saved=language#appearance")
    response.setCookie(PageLanguages.deviceCookie(code: language?.code, context: context))
    return response
  }

  /// Answers with the page itself, not a redirect: the secret is shown this once and is kept
  /// nowhere it could be fetched again.
  @Sendable func createToken(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(TokenForm.self, limit: services.configuration.maxBodySize)
    let lifetime = form.lifetime ?? ""
    let days: Int?
    if lifetime.isEmpty {
      days = nil
    } else if let chosen = SettingsModel.tokenLifetimes.compactMap({ $0.days }).first(where: { String($0) == lifetime }) {
      days = chosen
    } else {
      throw Problem(.unprocessableContent, "The token lifetime '\(lifetime)' is not one the form offers.", field: "lifetime")
    }
    let now = services.clock()
    do {
      let made = try await services.accounts.createAPIToken(
        name: form.name, for: user.id, expiresAt: days.map { now.addingTimeInterval(Double($0) * 86_400) }, at: now)
      return try await render(
        SettingsModel.Fields(user.settings), user: user, request: request,
        newToken: SettingsModel.NewToken(name: made.token.name, secret: made.secret.secret), status: .created
      ).response(from: request, context: context)
    } catch {
      guard let problem = Problem.from(error), problem.status == .unprocessableContent else { throw error }
      var errors = SettingsModel.Errors()
      errors.tokenName = problem.detail
      return try await render(
        SettingsModel.Fields(user.settings), errors: errors, user: user, request: request, tokenName: form.name,
        tokenLifetime: lifetime, status: .unprocessableContent
      ).response(from: request, context: context)
    }
  }

  /// Another user's token id is a 404, as if it never existed.
  @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.deleteAPIToken(id: try context.parameters.requireID("id"), for: user.id)
    return .seeOther("/settings?saved=revoked#tokens")
  }

  private func render(
    _ fields: SettingsModel.Fields, errors: SettingsModel.Errors = SettingsModel.Errors(), user: User,
    request: Request, notice: String? = nil, tokenName: String = "", tokenLifetime: String = "",
    newToken: SettingsModel.NewToken? = nil, status: HTTPResponse.Status = .ok
  ) async throws -> HTMLPage {
    let calendar = try? user.settings.dayCalendar()
    let speech = PageLanguages.speech(for: request, user: user)
    let words = PageDays(speech: speech, calendar: try calendar ?? DayCalendar(timeZone: .gmt))
    let isOwner = try await services.store.credential(for: user.id)?.role == .owner
    let channels = SettingsModel.Channels(
      feedSince: try await services.store.feedTokenCreatedAt(for: user.id),
      webhook: try await services.store.webhook(for: user.id),
      pushDevices: try await services.store.pushSubscriptions(for: user.id),
      isOwner: isOwner, calendar: calendar, t: speech.translator)
    var signIn: SettingsModel.SignIn?
    if let provider = services.providerSignIn?.settings {
      let linked = try await services.store.identities(for: user.id).contains { $0.issuer == provider.client.issuer.text }
      signIn = SettingsModel.SignIn(provider: provider.displayName, linked: linked, isOwner: isOwner, speech: speech)
    }
    let model = SettingsModel(
      fields: fields, errors: errors, theme: Theme(request: request), words: words,
      tokens: try await services.store.apiTokens(for: user.id), calendar: calendar,
      tokenName: tokenName, tokenLifetime: tokenLifetime, newToken: newToken, channels: channels, signIn: signIn,
      languages: SettingsModel.languageChoices(user.settings.language, t: speech.translator))
    return Templates.shared.page(
      "settings", title: speech.translator.text("nav.settings"), section: .settings, user: user, request: request,
      content: model, status: status, notice: notice, speech: speech)
  }
}
