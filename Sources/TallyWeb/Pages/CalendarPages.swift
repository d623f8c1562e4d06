import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyWire

/// The streaming calendar screen (SPEC 6): a month of tiles for one country, and a day's
/// providers with their prices as a sheet over it. Everything is a link or a GET form.
struct CalendarPages {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("calendar", use: currentMonth)
    group.get("calendar/{month}", use: month)
  }

  @Sendable func currentMonth(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    return try await page(Month(containing: try services.time(for: user).today), user: user, request: request)
  }

  @Sendable func month(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    return try await page(try context.parameters.requireMonth("month"), user: user, request: request)
  }

  private func page(_ month: Month, user: User, request: Request) async throws -> HTMLPage {
    let time = try services.time(for: user)
    try StreamingRules.checkPrintable(month, calendar: time.calendar)
    let query = request.uri.queryParameters
    let country = try await country(query, user: user)
    let revision = try await services.store.revision(for: user.id)
    let speech = PageLanguages.speech(for: request, user: user)
    let model = try await CalendarModel.read(
      from: services.store, user: user, month: month, country: country, time: time, open: try query.day("day"),
      words: PageDays(speech: speech, calendar: time.calendar))
    return Templates.shared.page(
      "calendar", title: speech.translator.text("calendar.title", ["month": model.heading]), section: .calendar,
      user: user, request: request, content: model, live: revision, speech: speech)
  }

  /// `?country=`, else the locale's country, else the first country the user has prices
  /// for, else the US (the calendar needs some country to show providers for).
  private func country(_ query: Parameters, user: User) async throws -> String {
    if let chosen = try query.country("country") { return chosen }
    if let local = MonthView.country(ofLocale: user.settings.locale) { return local }
    return try await services.store.priceTable(for: user.id).prices.first?.country ?? "US"
  }
}
