import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The journal as a list to read back and search (`GET /journal?q=&before=`); writing stays
/// on the Today page, which each day links to.
struct JournalPages {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("journal", use: page)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    let query = request.uri.queryParameters
    let speech = PageLanguages.speech(for: request, user: context.user)
    let model = try await JournalModel.read(
      from: services.store, user: user, today: time.today, words: PageDays(speech: speech, calendar: time.calendar),
      query: query.get("q"), before: try query.day("before"))
    return Templates.shared.page(
      "journal", title: speech.translator.text(model.searching ? "journal.searchTitle" : "journal.title"),
      section: .today, user: user, request: request, content: model, speech: speech)
  }
}
