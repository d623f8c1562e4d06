import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The Statistics screen (SPEC 4): the overall activity grid, the ranking, and completions
/// per week and per weekday, all drawn on the server.
struct StatisticsPages {
  let services: AppServices

  /// Enough for two years; the API's grid goes further, but a page of ten years of cells
  /// is not something anyone reads.
  static let weekCounts = 1...104

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("statistics", use: page)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let weeks = try request.uri.queryParameters.int("weeks", in: Self.weekCounts) ?? StatisticsModel.defaultWeeks
    let time = try services.time(for: user)
    let speech = PageLanguages.speech(for: request, user: context.user)
    let model = try await StatisticsModel.read(
      from: services.store, user: user, time: time, weeks: weeks, words: PageDays(speech: speech, calendar: time.calendar))
    return Templates.shared.page(
      "statistics", title: speech.translator.text("nav.statistics"), section: .statistics, user: user, request: request,
      content: model, speech: speech)
  }
}
