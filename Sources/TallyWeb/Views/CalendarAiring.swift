import Foundation
import TallyCore
import TallyHTTP
import TallyStore

/// What airs on an open day, under each provider that streams it (the seed's day list):
/// "Severance · S03E01 Hello Again".
enum CalendarAiring {
  /// Lines by provider id, for watched shows streaming in `country`, in season and episode
  /// order within each show and by title across shows.
  static func lines(on day: Day, country: String, store: any Store, user: UUID) async throws -> [Int: [String]] {
    let shows = Dictionary(uniqueKeysWithValues: try await store.shows(for: user).map { ($0.id, $0) })
    let episodes = try await store.episodes(airingIn: day...day, for: user)
      .compactMap { episode in shows[episode.showID].map { (show: $0, episode: episode) } }
      .filter { $0.show.status == .watching }
      .sorted { ($0.show.title, $0.episode.season, $0.episode.number) < ($1.show.title, $1.episode.season, $1.episode.number) }
    var lines: [Int: [String]] = [:]
    for (show, episode) in episodes {
      for provider in show.providers(in: country) {
        lines[provider.id, default: []].append(line(show: show, episode: episode))
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
