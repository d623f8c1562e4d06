import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyTMDB

/// One show: rename it, change its status, set its services per country, add episodes by
/// hand, fetch it again from TMDB, or delete it. Another user's show is a 404.
struct ShowDetailPages {
  let services: AppServices

  struct ShowForm: Decodable {
    var title: String
    var status: String
  }

  struct ProviderForm: Decodable {
    var country: String
    var provider: String
    var providerId: String?
    var providerName: String?
  }

  struct RemoveProviderForm: Decodable {
    var country: String
    var providerId: String
  }

  struct EpisodeForm: Decodable {
    var season: String
    var number: String
    var title: String
    var airDay: String
  }

  struct DeleteForm: Decodable {
    var confirm: String?
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("shows/{id}", use: page)
    group.post("shows/{id}", use: edit)
    group.post("shows/{id}/providers", use: addProvider)
    group.post("shows/{id}/providers/remove", use: removeProvider)
    group.post("shows/{id}/episodes", use: addEpisode)
    group.post("shows/{id}/refresh", use: refresh)
    group.post("shows/{id}/delete", use: delete)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    let speech = PageLanguages.speech(for: request, user: context.user)
    let model = try await ShowDetailModel.read(
      from: services.store, user: user, id: try context.parameters.requireID("id"), today: time.today,
      words: PageDays(speech: speech, calendar: time.calendar))
    return Templates.shared.page(
      "show", title: speech.translator.text("show.title2", ["show": model.title]), section: .calendar, user: user,
      request: request, content: model, speech: speech)
  }

  @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
    let (user, show) = try await owned(context)
    let form = try await request.decodeForm(ShowForm.self, limit: services.configuration.maxBodySize)
    let status = try ShowPages.status(form.status)
    try await StreamingRules.save(
      try ShowPages.valid {
        try Show(id: show.id, title: form.title, status: status, providers: show.providers, tmdbID: show.tmdbID)
      }, for: user.id, in: services.store)
    return .seeOther("/shows/\(show.id.storeText)")
  }

  @Sendable func addProvider(_ request: Request, context: AppRequestContext) async throws -> Response {
    let (user, show) = try await owned(context)
    let form = try await request.decodeForm(ProviderForm.self, limit: services.configuration.maxBodySize)
    let country = try ShowPages.country(form.country)
    let choices = ProviderChoice.all(shows: try await services.store.shows(for: user.id))
    guard
      let provider = try ShowPages.provider(
        choice: form.provider, id: form.providerId, name: form.providerName, among: choices)
    else { throw Problem(.unprocessableContent, "Pick a service to add.", field: "provider") }
    var providers = show.providers
    guard !providers[country, default: []].contains(where: { $0.id == provider.id }) else {
      throw Problem(.conflict, "\(show.title) already lists \(provider.name) in \(country).", field: "provider")
    }
    providers[country, default: []].append(provider)
    try await services.store.saveShow(try replacing(show, providers: providers), for: user.id)
    return .seeOther("/shows/\(show.id.storeText)#providers")
  }

  @Sendable func removeProvider(_ request: Request, context: AppRequestContext) async throws -> Response {
    let (user, show) = try await owned(context)
    let form = try await request.decodeForm(RemoveProviderForm.self, limit: services.configuration.maxBodySize)
    let country = try ShowPages.country(form.country)
    var providers = show.providers
    providers[country] = providers[country]?.filter { String($0.id) != form.providerId }
    if providers[country]?.isEmpty == true { providers[country] = nil }
    try await services.store.saveShow(try replacing(show, providers: providers), for: user.id)
    return .seeOther("/shows/\(show.id.storeText)#providers")
  }

  @Sendable func addEpisode(_ request: Request, context: AppRequestContext) async throws -> Response {
    let (user, show) = try await owned(context)
    let form = try await request.decodeForm(EpisodeForm.self, limit: services.configuration.maxBodySize)
    guard let season = Int(form.season) else {
      throw Problem(.unprocessableContent, "The season must be a number like 1, not '\(form.season)'.", field: "season")
    }
    guard let number = Int(form.number) else {
      throw Problem(.unprocessableContent, "The episode number must be a number like 1, not '\(form.number)'.", field: "number")
    }
    guard let day = Day(form.airDay) else {
      throw Problem(.unprocessableContent, "The air day must be a day like 2026-03-08, not '\(form.airDay)'.", field: "airDay")
    }
    let episode = try ShowPages.valid {
      try Episode(showID: show.id, season: season, number: number, title: form.title, airDay: day)
    }
    try await services.store.saveEpisodes([episode], for: user.id)
    return .seeOther("/shows/\(show.id.storeText)#episodes")
  }

  @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> Response {
    let (user, show) = try await owned(context)
    guard let source = services.showSource else {
      throw Problem(.conflict, "This server has no TMDB API key, so it cannot fetch the show again.")
    }
    guard show.tmdbID != nil else { throw Problem(.conflict, ShowSyncError.notFromTMDB(show.title).description) }
    _ = try await Problem.fromTMDB {
      try await ShowSync(source: source, store: services.store).refresh(showID: show.id, for: user.id)
    }
    return .seeOther("/shows/\(show.id.storeText)")
  }

  @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
    let (user, show) = try await owned(context)
    let form = try await request.decodeForm(DeleteForm.self, limit: services.configuration.maxBodySize)
    guard form.confirm == "yes" else {
      throw Problem(
        .unprocessableContent, "Tick the box to confirm: deleting \(show.title) removes its episodes too.",
        field: "confirm")
    }
    try await services.store.deleteShow(id: show.id, for: user.id)
    return .seeOther("/shows")
  }

  /// Looked up first, so another user's id is a 404 and never a write.
  private func owned(_ context: AppRequestContext) async throws -> (User, Show) {
    let user = try context.requireUser()
    return (user, try await services.store.show(id: try context.parameters.requireID("id"), for: user.id))
  }

  private func replacing(_ show: Show, providers: [String: [Provider]]) throws -> Show {
    try ShowPages.valid {
      try Show(id: show.id, title: show.title, status: show.status, providers: providers, tmdbID: show.tmdbID)
    }
  }
}
