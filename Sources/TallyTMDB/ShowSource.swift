import Foundation
import TallyCore

/// A show a search found.
public struct ShowSearchResult: Codable, Hashable, Sendable {
  public var tmdbId: Int
  public var name: String
  public var firstAirDay: Day?
  public var overview: String

  public init(tmdbId: Int, name: String, firstAirDay: Day?, overview: String) {
    self.tmdbId = tmdbId
    self.name = name
    self.firstAirDay = firstAirDay
    self.overview = overview
  }
}

/// A show's name and the seasons it has.
public struct ShowDetails: Hashable, Sendable {
  public var tmdbID: Int
  public var name: String
  public var seasonNumbers: [Int]

  public init(tmdbID: Int, name: String, seasonNumbers: [Int]) {
    self.tmdbID = tmdbID
    self.name = name
    self.seasonNumbers = seasonNumbers
  }
}

/// An episode as the source lists it; `airDay` is `nil` while no date is announced.
public struct SourceEpisode: Hashable, Sendable {
  public var season: Int
  public var number: Int
  public var title: String
  public var airDay: Day?

  public init(season: Int, number: Int, title: String, airDay: Day?) {
    self.season = season
    self.number = number
    self.title = title
    self.airDay = airDay
  }
}

/// Where show data comes from: ``TMDBClient`` over HTTP, or a fake in tests.
public protocol ShowSource: Sendable {
  func searchShows(_ query: String) async throws -> [ShowSearchResult]
  func show(_ tmdbID: Int) async throws -> ShowDetails
  /// An empty season is an empty list.
  func episodes(of tmdbID: Int, season: Int) async throws -> [SourceEpisode]
  /// The subscription services streaming the show, by upper-case country code.
  func providers(of tmdbID: Int) async throws -> [String: [Provider]]
}
