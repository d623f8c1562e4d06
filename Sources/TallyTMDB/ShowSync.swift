import Foundation
import TallyCore
import TallyStore

/// What adding or refreshing a show from a ``ShowSource`` did.
public struct ShowSyncReport: Sendable {
  public var show: Show
  /// `false` when an existing show was updated.
  public var created: Bool
  public var episodesSaved: Int
  /// Episodes the source lists without an air date yet, left out until they have one.
  public var episodesWithoutDate: Int
}

/// Adds shows from a ``ShowSource`` to a user's watch list and refreshes them.
///
/// Everything is fetched before the first write, so a source that fails half-way changes
/// nothing. A show is matched by its TMDB id, else by title among the user's shows that have
/// none (one imported from a calendar feed), so fetching again updates rather than duplicates.
public struct ShowSync: Sendable {
  public let source: any ShowSource
  public let store: any StreamingRepository

  public init(source: any ShowSource, store: any StreamingRepository) {
    self.source = source
    self.store = store
  }

  /// Adds the show, or updates the user's show with this TMDB id. `status` applies to a new
  /// show (default `watching`) or, when given, replaces an existing show's.
  public func add(tmdbID: Int, status: ShowStatus? = nil, for user: UUID) async throws -> ShowSyncReport {
    let shows = try await store.shows(for: user)
    let details = try await source.show(tmdbID)
    let existing =
      shows.first { $0.tmdbID == tmdbID }
      ?? shows.first { $0.tmdbID == nil && $0.title.lowercased() == details.name.lowercased() }
    return try await sync(details, existing: existing, status: status, for: user)
  }

  /// Fetches the show again by its TMDB id; ``ShowSyncError/notFromTMDB`` when it has none.
  public func refresh(showID: UUID, for user: UUID) async throws -> ShowSyncReport {
    let show = try await store.show(id: showID, for: user)
    guard let tmdbID = show.tmdbID else { throw ShowSyncError.notFromTMDB(show.title) }
    return try await sync(try await source.show(tmdbID), existing: show, status: nil, for: user)
  }

  /// Refreshes every show of the user that came from TMDB, by title.
  public func refreshAll(for user: UUID) async throws -> [ShowSyncReport] {
    var reports: [ShowSyncReport] = []
    for show in try await store.shows(for: user) where show.tmdbID != nil {
      reports.append(try await refresh(showID: show.id, for: user))
    }
    return reports
  }

  private func sync(_ details: ShowDetails, existing: Show?, status: ShowStatus?, for user: UUID) async throws
    -> ShowSyncReport
  {
    let fetchedProviders = try await source.providers(of: details.tmdbID)
    var fetched: [SourceEpisode] = []
    for season in details.seasonNumbers {
      fetched += try await source.episodes(of: details.tmdbID, season: season)
    }
    // TMDB's lists replace a country's providers; countries it does not list keep the user's.
    var providers = existing?.providers ?? [:]
    for (country, list) in fetchedProviders { providers[country] = list }
    let show = try Show(
      id: existing?.id ?? UUID(), title: details.name, status: status ?? existing?.status ?? .watching,
      providers: providers, tmdbID: details.tmdbID)
    var seen = Set<[Int]>()
    let episodes = try fetched.compactMap { item -> Episode? in
      guard let airDay = item.airDay, seen.insert([item.season, item.number]).inserted else { return nil }
      return try Episode(showID: show.id, season: item.season, number: item.number, title: item.title, airDay: airDay)
    }
    try await store.saveShow(show, for: user)
    try await store.saveEpisodes(episodes, for: user)
    return ShowSyncReport(
      show: show, created: existing == nil, episodesSaved: episodes.count,
      episodesWithoutDate: fetched.filter { $0.airDay == nil }.count)
  }
}

public enum ShowSyncError: Error, Equatable, CustomStringConvertible {
  case notFromTMDB(String)

  public var description: String {
    switch self {
    case .notFromTMDB(let title):
      "'\(title)' was not added from TMDB, so there is nothing to fetch again; add it with its TMDB id."
    }
  }
}
