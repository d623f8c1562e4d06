import Foundation
import TallyCore
import TallyStore

/// A show as the API sends it and `export` writes it: lower-case id, providers by upper-case
/// country code.
public struct ShowJSON: Codable, Sendable {
  public var id: String
  public var title: String
  public var status: ShowStatus
  public var providers: [String: [Provider]]
  /// Present when the show came from TMDB.
  public var tmdbId: Int?

  public init(_ show: Show) {
    id = show.id.storeText
    title = show.title
    status = show.status
    providers = show.providers
    tmdbId = show.tmdbID
  }

  public func show() throws -> Show {
    try Show(
      id: try WireID.uuid(id, field: "show id"), title: title, status: status, providers: providers,
      tmdbID: tmdbId)
  }
}

/// An episode as the API sends it and `export` writes it.
public struct EpisodeJSON: Codable, Sendable {
  public var showId: String
  public var season: Int
  public var number: Int
  public var title: String
  public var airDay: Day

  public init(_ episode: Episode) {
    showId = episode.showID.storeText
    season = episode.season
    number = episode.number
    title = episode.title
    airDay = episode.airDay
  }

  public func episode() throws -> Episode {
    try Episode(
      showID: try WireID.uuid(showId, field: "episode showId"), season: season, number: number,
      title: title, airDay: airDay)
  }
}
