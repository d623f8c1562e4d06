import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyTMDB
import TallyWire

/// Filling the streaming calendar from real sources: TMDB search, adding and refreshing a show
/// from TMDB, and importing episodes from an iCalendar feed's text.
struct AiringController {
  let services: AppServices

  struct AddFromTMDBBody: JSONBody {
    var tmdbId: Int
    var status: ShowStatus?
    static let fields: Set<String> = ["tmdbId", "status"]
  }

  /// The feed's text, not its address: the server fetches nothing a client names, so it
  /// cannot be turned against the network it sits in. `tally episodes import URL` fetches.
  struct ImportBody: JSONBody {
    var calendar: String
    var providers: [String: [StreamingController.ProviderBody]]?
    var timeZone: String?
    static let fields: Set<String> = ["calendar", "providers", "timeZone"]
  }

  struct SearchJSON: Encodable, Sendable {
    var results: [ShowSearchResult]
    var attribution: String
  }

  struct SyncJSON: Encodable, Sendable {
    var show: ShowJSON
    var created: Bool
    var episodesSaved: Int
    var episodesWithoutDate: Int
    var attribution: String

    init(_ report: ShowSyncReport) {
      show = ShowJSON(report.show)
      created = report.created
      episodesSaved = report.episodesSaved
      episodesWithoutDate = report.episodesWithoutDate
      attribution = TMDBAttribution.text
    }
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("tmdb/search", use: search)
    group.post("shows/tmdb", use: addFromTMDB)
    group.post("shows/{id}/refresh", use: refresh)
    group.post("episodes/import", use: importFeed)
  }

  @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SearchJSON> {
    _ = try context.requireUser()
    let query = (request.uri.queryParameters.get("query") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    guard !query.isEmpty, query.count <= 200 else {
      throw Problem(.badRequest, "Give a show's name to search for, 1 to 200 characters, like ?query=severance.", field: "query")
    }
    let results = try await Problem.fromTMDB { try await source().searchShows(query) }
    return JSONResponse(SearchJSON(results: results, attribution: TMDBAttribution.text))
  }

  @Sendable func addFromTMDB(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SyncJSON> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(AddFromTMDBBody.self, limit: services.configuration.maxBodySize)
    guard (1...StreamingRules.largestNumber).contains(body.tmdbId) else {
      throw Problem(
        .unprocessableContent, "The tmdbId must be a TMDB show id from 1 to \(StreamingRules.largestNumber), not \(body.tmdbId).",
        field: "tmdbId")
    }
    let sync = ShowSync(source: try source(), store: services.store)
    let report = try await Problem.fromTMDB { try await sync.add(tmdbID: body.tmdbId, status: body.status, for: user.id) }
    return JSONResponse(SyncJSON(report), status: report.created ? .created : .ok)
  }

  @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SyncJSON> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    // Looked up first so another user's id is a 404 whether or not TMDB is configured.
    let show = try await services.store.show(id: id, for: user.id)
    guard show.tmdbID != nil else { throw Problem(.conflict, ShowSyncError.notFromTMDB(show.title).description) }
    let sync = ShowSync(source: try source(), store: services.store)
    return JSONResponse(SyncJSON(try await Problem.fromTMDB { try await sync.refresh(showID: id, for: user.id) }))
  }

  @Sendable func importFeed(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<FeedImportReport> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(ImportBody.self, limit: services.configuration.maxImportSize)
    let zoneName = body.timeZone ?? user.settings.timeZone
    guard let zone = TimeZone(identifier: zoneName) else {
      throw Problem(.unprocessableContent, "The timeZone must be an IANA zone like Europe/Berlin, not '\(zoneName)'.", field: "timeZone")
    }
    let events: [ICSEvent]
    do {
      events = try ICSParser.events(in: body.calendar, floatingTimeZone: zone)
    } catch {
      throw Problem(.unprocessableContent, "The calendar \(error.rule).", field: "calendar")
    }
    let feed = EpisodeFeed.episodes(from: events, timeZone: zone)
    var providers: [String: [Provider]] = [:]
    for (country, list) in body.providers ?? [:] {
      guard let code = try? CountryCode.normalized(country) else {
        throw Problem(.unprocessableContent, "The providers must be keyed by two-letter country codes like US, not '\(country)'.", field: "providers")
      }
      providers[code, default: []] += list.map(\.provider)
    }
    return JSONResponse(try await services.store.importFeed(feed, providers: providers, for: user.id))
  }

  private func source() throws -> any ShowSource {
    guard let source = services.showSource else {
      throw Problem(
        .conflict, "This server has no TMDB API key: start it with --tmdb-api-key or TALLY_TMDB_API_KEY.")
    }
    return source
  }
}
