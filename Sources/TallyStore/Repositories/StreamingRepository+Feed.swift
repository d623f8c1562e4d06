import Foundation
import TallyCore

/// What importing a calendar feed did, for the CLI and the API to report.
public struct FeedImportReport: Codable, Hashable, Sendable {
  /// Titles of the shows the feed added, in feed order.
  public var showsAdded: [String]
  /// Episodes written, new or updated.
  public var episodesSaved: Int
  /// Summaries that name no episode and were left out.
  public var skipped: [String]

  public init(showsAdded: [String], episodesSaved: Int, skipped: [String]) {
    self.showsAdded = showsAdded
    self.episodesSaved = episodesSaved
    self.skipped = skipped
  }
}

extension StreamingRepository {
  /// Stores a feed's episodes: each under the user's show of the same title (any case),
  /// added as a `watching` show when there is none, keyed by (season, number) so importing the
  /// same feed again updates rather than duplicates. `providers` (by country) are added to each
  /// of the feed's shows that lacks them; a show's other providers stay.
  ///
  /// Everything is built and checked before the first write, so bad input changes nothing.
  public func importFeed(
    _ feed: EpisodeFeed.Result, providers: [String: [Provider]], for user: UUID,
    newID: () -> UUID = UUID.init
  ) async throws -> FeedImportReport {
    var byTitle: [String: Show] = [:]
    for show in try await shows(for: user) where byTitle[NameKey.comparisonKey(show.title)] == nil {
      byTitle[NameKey.comparisonKey(show.title)] = show
    }
    var changed: [UUID: Show] = [:]
    var order: [UUID] = []
    var added: [String] = []
    var episodes: [Episode] = []
    for item in feed.episodes {
      let key = NameKey.comparisonKey(item.showTitle)
      var show = byTitle[key]
      if show == nil {
        show = try Show(id: newID(), title: item.showTitle, status: .watching)
        added.append(item.showTitle)
      }
      guard var show else { preconditionFailure("a show was just made") }
      if changed[show.id] == nil {
        show = try Self.adding(providers, to: show)
        byTitle[key] = show
        changed[show.id] = show
        order.append(show.id)
      }
      episodes.append(
        try Episode(showID: show.id, season: item.season, number: item.number, title: item.title, airDay: item.airDay))
    }
    for id in order {
      if let show = changed[id] { try await saveShow(show, for: user) }
    }
    try await saveEpisodes(episodes, for: user)
    return FeedImportReport(showsAdded: added, episodesSaved: episodes.count, skipped: feed.skipped)
  }

  private static func adding(_ providers: [String: [Provider]], to show: Show) throws -> Show {
    var merged = show.providers
    for (country, list) in providers {
      let code = try CountryCode.normalized(country, field: "providers")
      for provider in list where !(merged[code] ?? []).contains(where: { $0.id == provider.id }) {
        merged[code, default: []].append(provider)
      }
    }
    return try Show(id: show.id, title: show.title, status: show.status, providers: merged, tmdbID: show.tmdbID)
  }
}
