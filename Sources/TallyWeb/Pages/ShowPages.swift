import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyTMDB

/// The Shows screen: the watch list, adding a show (from TMDB when the server has a key, by
/// hand always) and importing an iCalendar feed's episodes, such as Sonarr's.
struct ShowPages {
  let services: AppServices

  struct AddForm: Decodable {
    var title: String
    var status: String?
  }

  struct TMDBForm: Decodable {
    var tmdbId: String
    var status: String?
  }

  struct FeedForm: Decodable {
    var calendar: String
    var country: String?
    var provider: String?
    var providerId: String?
    var providerName: String?
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("shows", use: list)
    group.post("shows", use: add)
    group.post("shows/tmdb", use: addFromTMDB)
    group.post("shows/feed", use: importFeed)
    ShowDetailPages(services: services).addRoutes(to: group)
    PricePages(services: services).addRoutes(to: group)
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    let query = request.uri.queryParameters
    let speech = PageLanguages.speech(for: request, user: context.user)
    let model = try await ShowsModel.read(
      from: services.store, user: user, source: services.showSource, query: query.get("q") ?? "",
      notice: try Self.importNotice(query, t: speech.translator), today: time.today,
      words: PageDays(speech: speech, calendar: time.calendar))
    return Templates.shared.page(
      "shows", title: speech.translator.text("shows.title"), section: .calendar, user: user, request: request,
      content: model, speech: speech)
  }

  @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(AddForm.self, limit: services.configuration.maxBodySize)
    let show = try Self.valid {
      try Show(id: UUID(), title: form.title, status: try Self.status(form.status))
    }
    try await StreamingRules.save(show, for: user.id, in: services.store)
    return .seeOther("/shows/\(show.id.storeText)")
  }

  @Sendable func addFromTMDB(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(TMDBForm.self, limit: services.configuration.maxBodySize)
    guard let id = Int(form.tmdbId), id > 0 else {
      throw Problem(.unprocessableContent, "The TMDB id must be a positive number, not '\(form.tmdbId)'.", field: "tmdbId")
    }
    guard let source = services.showSource else {
      throw Problem(.conflict, "This server has no TMDB API key: add the show by hand instead.")
    }
    let status = try Self.status(form.status)
    let report = try await Problem.fromTMDB {
      try await ShowSync(source: source, store: services.store).add(tmdbID: id, status: status, for: user.id)
    }
    return .seeOther("/shows/\(report.show.id.storeText)")
  }

  /// The feed's text, pasted or read from a file by the page; the server fetches no address
  /// a user names (docs/web.md).
  @Sendable func importFeed(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(FeedForm.self, limit: services.configuration.maxImportSize)
    guard let zone = TimeZone(identifier: user.settings.timeZone) else {
      throw Problem(.unprocessableContent, "Your time zone '\(user.settings.timeZone)' is unknown; fix it in Settings.")
    }
    let events: [ICSEvent]
    do {
      events = try ICSParser.events(in: form.calendar, floatingTimeZone: zone)
    } catch {
      throw Problem(.unprocessableContent, "The calendar \(error.rule).", field: "calendar")
    }
    var providers: [String: [Provider]] = [:]
    let choices = ProviderChoice.all(shows: try await services.store.shows(for: user.id))
    if let provider = try Self.provider(choice: form.provider, id: form.providerId, name: form.providerName, among: choices) {
      providers[try Self.country(form.country)] = [provider]
    }
    let report = try await services.store.importFeed(
      EpisodeFeed.episodes(from: events, timeZone: zone), providers: providers, for: user.id)
    return .seeOther("/shows?imported=\(report.episodesSaved)&added=\(report.showsAdded.count)")
  }

  /// "Imported 12 episodes and 2 new shows." after a feed import; only counts travel in the
  /// address, so a crafted link cannot put words on the page.
  static func importNotice(_ query: Parameters, t: Translator) throws -> String? {
    guard let episodes = try query.int("imported", in: 0...Int(Int32.max)) else { return nil }
    let shows = try query.int("added", in: 0...Int(Int32.max)) ?? 0
    return t.text(
      "shows.imported",
      ["episodes": t.plural("shows.episodes", count: episodes), "shows": t.plural("shows.newShows", count: shows)])
  }

  // MARK: Form values

  static func status(_ text: String?) throws -> ShowStatus {
    guard let text, !text.isEmpty else { return .watching }
    guard let status = ShowStatus(rawValue: text) else {
      throw Problem(.unprocessableContent, "The status must be watching, paused or finished, not '\(text)'.", field: "status")
    }
    return status
  }

  static func country(_ text: String?) throws -> String {
    do {
      return try CountryCode.normalized(text ?? "", field: "country")
    } catch {
      throw Problem(
        .unprocessableContent, "The country must be a two-letter code like US, not '\(text ?? "")'.", field: "country")
    }
  }

  /// A service picked from the list, or "another" typed as its TMDB id and name; nil when
  /// none was picked.
  static func provider(choice: String?, id: String?, name: String?, among choices: [ProviderChoice]) throws -> Provider? {
    guard let choice, !choice.isEmpty else { return nil }
    if choice == "other" {
      guard let number = Int(id ?? ""), (1...StreamingRules.largestNumber).contains(number) else {
        throw Problem(
          .unprocessableContent, "The provider id must be TMDB's number for the service, like 8, not '\(id ?? "")'.",
          field: "providerId")
      }
      return try valid { try Provider(id: number, name: name ?? "") }
    }
    guard let known = choices.first(where: { $0.value == choice }), let number = Int(known.value) else {
      throw Problem(.unprocessableContent, "The provider '\(choice)' is not one this page offers.", field: "provider")
    }
    return try valid { try Provider(id: number, name: known.name) }
  }

  /// The engine's rule as a 422 naming the field.
  static func valid<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ValidationError {
      let field = error.field.split(separator: ".").last.map(String.init) ?? error.field
      throw Problem(.unprocessableContent, "The \(field) \(error.rule).", field: field, rule: error)
    }
  }
}
