import Foundation
import TallyCore
import TallyHTTP
import TallyStore

/// What airs on an open day, under each provider that streams it (the seed's day list):
/// "Severance · S03E01 Hello Again".
enum CalendarAiring {
  /// What airs on a day, one line per episode: by provider id for watched shows streaming in
  /// `country`, and apart for those with no provider there; in season and episode order
  /// within each show and by title across shows.
  struct Lines {
    var byProvider: [Int: [String]] = [:]
    var withoutProvider: [String] = []
  }

  static func lines(on day: Day, country: String, store: any Store, user: UUID) async throws -> Lines {
    let shows = Dictionary(uniqueKeysWithValues: try await store.shows(for: user).map { ($0.id, $0) })
    let episodes = try await store.episodes(airingIn: day...day, for: user)
      .compactMap { episode in shows[episode.showID].map { (show: $0, episode: episode) } }
      .filter { $0.show.status == .watching }
      .sorted { ($0.show.title, $0.episode.season, $0.episode.number) < ($1.show.title, $1.episode.season, $1.episode.number) }
    var lines = Lines()
    for (show, episode) in episodes {
      let providers = show.providers(in: country)
      if providers.isEmpty { lines.withoutProvider.append(line(show: show, episode: episode)) }
      for provider in providers {
        lines.byProvider[provider.id, default: []].append(line(show: show, episode: episode))
      }
    }
    return lines
  }

  static func line(show: Show, episode: Episode) -> String {
    "\(show.title) · \(code(episode)) \(episode.title)"
  }

  /// "S03E01".
  static func code(_ episode: Episode) -> String {
    "S\(twoDigits(episode.season))E\(twoDigits(episode.number))"
  }

  private static func twoDigits(_ number: Int) -> String {
    number < 10 ? "0\(number)" : String(number)
  }
}
