import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// Shows with their providers and episodes, the prices the user pays, and the month view
/// `tally calendar --json` prints. Every id is looked up among the user's own shows, so
/// another user's id is a 404 like one that never existed.
struct StreamingController {
  let services: AppServices

  /// A provider inside a show body, refusing fields a provider does not have.
  struct ProviderBody: Decodable, Sendable {
    let provider: Provider

    init(from decoder: any Decoder) throws {
      try decoder.rejectUnknownKeys(["id", "name", "logoURL"])
      provider = try Provider(from: decoder)
      try StreamingController.checkLargest(provider.id, at: decoder, key: "id")
      // Pages show the logo as an image; only a web address may be one.
      if let url = provider.logoURL, !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath + [AnyKey(stringValue: "logoURL")],
            debugDescription: "logoURL must be an http or https address, not '\(url.absoluteString)'"))
      }
    }
  }

  /// A new show (title required; status `watching` and no providers when absent), or the
  /// fields of an existing show to change (absent fields keep their values).
  struct ShowBody: JSONBody {
    var title: String?
    var status: ShowStatus?
    var providers: [String: [ProviderBody]]?
    static let fields: Set<String> = ["title", "status", "providers"]
    static let nullableFields: Set<String> = ["title", "status"]
  }

  struct EpisodeBody: Decodable, Sendable {
    var season: Int
    var number: Int
    var title: String
    var airDay: Day

    private enum CodingKeys: String, CodingKey { case season, number, title, airDay }

    init(from decoder: any Decoder) throws {
      try decoder.rejectUnknownKeys(["season", "number", "title", "airDay"])
      let c = try decoder.container(keyedBy: CodingKeys.self)
      season = try c.decode(Int.self, forKey: .season)
      number = try c.decode(Int.self, forKey: .number)
      title = try c.decode(String.self, forKey: .title)
      airDay = try c.decode(Day.self, forKey: .airDay)
      try StreamingController.checkLargest(season, at: decoder, key: "season")
      try StreamingController.checkLargest(number, at: decoder, key: "number")
    }
  }

  /// Refuses a number above ``StreamingRules/largestNumber`` with a decoding error at `key`.
  private static func checkLargest(_ value: Int, at decoder: any Decoder, key: String) throws {
    guard value > StreamingRules.largestNumber else { return }
    throw DecodingError.dataCorrupted(
      .init(
        codingPath: decoder.codingPath + [AnyKey(stringValue: key)],
        debugDescription: "\(key) must be at most \(StreamingRules.largestNumber), not \(value)"))
  }

  struct EpisodesBody: JSONBody {
    var episodes: [EpisodeBody]
    static let fields: Set<String> = ["episodes"]
  }

  struct PriceBody: JSONBody {
    var amount: Decimal
    var currency: String
    static let fields: Set<String> = ["amount", "currency"]
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("shows", use: listShows)
    group.post("shows", use: addShow)
    group.get("shows/{id}", use: getShow)
    group.put("shows/{id}", use: editShow)
    group.delete("shows/{id}", use: deleteShow)
    group.get("shows/{id}/episodes", use: listEpisodes)
    group.put("shows/{id}/episodes", use: saveEpisodes)
    group.get("providers", use: providers)
    group.get("prices", use: prices)
    group.put("prices/{country}/{providerId}", use: setPrice)
    group.delete("prices/{country}/{providerId}", use: removePrice)
    group.get("calendar/{month}", use: calendar)
  }

  // MARK: Shows

  @Sendable func listShows(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[ShowJSON]> {
    let user = try context.requireUser()
    return JSONResponse(try await services.store.shows(for: user.id).map(ShowJSON.init))
  }

  @Sendable func addShow(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ShowJSON> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(ShowBody.self, limit: services.configuration.maxBodySize)
    guard let title = body.title else {
      throw Problem(.unprocessableContent, "A new show needs a title.", field: "title")
    }
    let show = try Self.show(
      id: UUID(), title: title, status: body.status ?? .watching,
      providers: body.providers?.mapValues { $0.map(\.provider) } ?? [:])
    try await StreamingRules.save(show, for: user.id, in: services.store)
    return JSONResponse(ShowJSON(show), status: .created)
  }

  @Sendable func getShow(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ShowJSON> {
    let user = try context.requireUser()
    return JSONResponse(ShowJSON(try await services.store.show(id: try context.parameters.requireID("id"), for: user.id)))
  }

  @Sendable func editShow(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ShowJSON> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let body = try await request.decodeJSON(ShowBody.self, limit: services.configuration.maxBodySize)
    // Looked up first so another user's id is a 404, never a write.
    let current = try await services.store.show(id: id, for: user.id)
    let show = try Self.show(
      id: id, title: body.title ?? current.title, status: body.status ?? current.status,
      providers: body.providers?.mapValues { $0.map(\.provider) } ?? current.providers,
      tmdbID: current.tmdbID)
    try await StreamingRules.save(show, for: user.id, in: services.store)
    return JSONResponse(ShowJSON(show))
  }

  @Sendable func deleteShow(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.deleteShow(id: try context.parameters.requireID("id"), for: user.id)
    return Response(status: .noContent)
  }

  // MARK: Episodes

  @Sendable func listEpisodes(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[EpisodeJSON]> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    return JSONResponse(try await services.store.episodes(of: id, for: user.id).map(EpisodeJSON.init))
  }

  /// Adds or replaces the listed episodes, keyed by (season, number), in one transaction;
  /// answers with all the show's episodes.
  @Sendable func saveEpisodes(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[EpisodeJSON]> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let body = try await request.decodeJSON(EpisodesBody.self, limit: services.configuration.maxBodySize)
    _ = try await services.store.show(id: id, for: user.id)
    var seen: Set<[Int]> = []
    let episodes = try body.episodes.enumerated().map { index, item in
      guard seen.insert([item.season, item.number]).inserted else {
        throw Problem(
          .unprocessableContent,
          "The episodes list season \(item.season) episode \(item.number) twice.", field: "episodes[\(index)]")
      }
      do {
        return try Episode(showID: id, season: item.season, number: item.number, title: item.title, airDay: item.airDay)
      } catch let error as ValidationError {
        throw Self.problem(error, at: "episodes[\(index)].")
      }
    }
    try await services.store.saveEpisodes(episodes, for: user.id)
    return JSONResponse(try await services.store.episodes(of: id, for: user.id).map(EpisodeJSON.init))
  }

  // MARK: Providers and prices

  /// The providers the user's shows name, per country, each once (the first show by title
  /// decides its name and logo), by name.
  @Sendable func providers(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[String: [Provider]]> {
    let user = try context.requireUser()
    var byCountry: [String: [Provider]] = [:]
    for show in try await services.store.shows(for: user.id) {
      for (country, providers) in show.providers {
        for provider in providers where !(byCountry[country] ?? []).contains(where: { $0.id == provider.id }) {
          byCountry[country, default: []].append(provider)
        }
      }
    }
    return JSONResponse(
      byCountry.mapValues { $0.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) } })
  }

  @Sendable func prices(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[Price]> {
    let user = try context.requireUser()
    return JSONResponse(try await services.store.priceTable(for: user.id).prices)
  }

  @Sendable func setPrice(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Price> {
    let user = try context.requireUser()
    let (country, providerID) = try Self.priceKey(context.parameters)
    let body = try await request.decodeJSON(PriceBody.self, limit: services.configuration.maxBodySize)
    let price: Price
    do {
      price = try Price(country: country, providerID: providerID, amount: body.amount, currency: body.currency)
    } catch {
      throw Self.problem(error, at: "")
    }
    guard price.amount <= StreamingRules.largestAmount else {
      throw Problem(
        .unprocessableContent, "The amount must be at most \(StreamingRules.largestAmount), not \(price.amount).", field: "amount")
    }
    try await services.store.setPrice(price, for: user.id)
    return JSONResponse(price)
  }

  /// Removes the price; an unpriced pair is already as asked.
  @Sendable func removePrice(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let (country, providerID) = try Self.priceKey(context.parameters)
    try await services.store.removePrice(country: country, providerID: providerID, for: user.id)
    return Response(status: .noContent)
  }

  // MARK: Calendar

  /// The month view for `?country=` (default: the user's locale's country), computed from
  /// stored data only and kept until the store's revision moves: any write to shows,
  /// episodes, providers, prices or settings makes the next request compute it again.
  @Sendable func calendar(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let month = try context.parameters.requireMonth("month")
    guard let country = try request.uri.queryParameters.country("country") ?? MonthView.country(ofLocale: user.settings.locale)
    else {
      throw Problem(
        .badRequest, "Your locale \(user.settings.locale) names no country: add one, like ?country=US.",
        field: "country")
    }
    let time = try services.time(for: user)
    try StreamingRules.checkPrintable(month, calendar: time.calendar)
    // Read before the data: see ResponseCache.
    let revision = try await services.store.revision(for: user.id)
    let key = "calendar|\(user.id.storeText)|\(time.today)|\(month)|\(country.uppercased())"
    return try await services.cache.response(for: key, revision: revision, request: request) {
      try WireJSON.encoder.encode(
        try await MonthView.read(
          from: services.store, user: user.id, month: month, country: country, calendar: time.calendar,
          today: time.today))
    }
  }

  // MARK: Helpers

  private static func show(
    id: UUID, title: String, status: ShowStatus, providers: [String: [Provider]], tmdbID: Int? = nil
  ) throws -> Show {
    do {
      return try Show(id: id, title: title, status: status, providers: providers, tmdbID: tmdbID)
    } catch {
      throw problem(error, at: "")
    }
  }

  /// The path's `{country}/{providerId}`, a 400 naming the part that is not one.
  private static func priceKey(_ parameters: Parameters) throws -> (String, Int) {
    guard let country = try parameters.country("country") else {
      throw Problem(.badRequest, "The price's country is missing.", field: "country")
    }
    let text = parameters.get("providerId") ?? ""
    guard let providerID = Int(text), (1...StreamingRules.largestNumber).contains(providerID) else {
      throw Problem(
        .badRequest,
        "The provider id must be a TMDB provider id from 1 to \(StreamingRules.largestNumber) like 8, not '\(text)'.",
        field: "providerId")
    }
    return (country, providerID)
  }

  /// The engine names fields by type (`show.title`, `price.currency`); the client knows them
  /// by the body's names, so the problem names those.
  private static func problem(_ error: ValidationError, at prefix: String) -> Problem {
    let field = prefix + (error.field.split(separator: ".").last.map(String.init) ?? error.field)
    return Problem(.unprocessableContent, "The \(field) \(error.rule).", field: field)
  }
}
