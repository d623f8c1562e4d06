import Foundation
import Synchronization
import TallyCore
import TallyStore
import TallyTMDB

/// A show source with one show, 1399, and a switch that makes every call fail like TMDB with a
/// bad key.
package final class FakeShowSource: ShowSource {
  package let failing = Mutex(false)
  package let calls = Mutex(0)

  package init() {}

  private func call() throws {
    calls.withLock { $0 += 1 }
    if failing.withLock({ $0 }) { throw TMDBError.unauthorized("Invalid API key") }
  }

  package func searchShows(_ query: String) async throws -> [ShowSearchResult] {
    try call()
    return [ShowSearchResult(tmdbId: 1399, name: "Game of Thrones", firstAirDay: Day("2011-04-17"), overview: "Winter.")]
  }

  package func show(_ tmdbID: Int) async throws -> ShowDetails {
    try call()
    guard tmdbID == 1399 else { throw TMDBError.notFound("show with id \(tmdbID)") }
    return ShowDetails(tmdbID: 1399, name: "Game of Thrones", seasonNumbers: [1])
  }

  package func episodes(of tmdbID: Int, season: Int) async throws -> [SourceEpisode] {
    try call()
    return [
      SourceEpisode(season: 1, number: 1, title: "Winter Is Coming", airDay: Day("2026-03-10")),
      SourceEpisode(season: 1, number: 2, title: "TBA", airDay: nil),
    ]
  }

  package func providers(of tmdbID: Int) async throws -> [String: [Provider]] {
    try call()
    return ["US": [try Provider(id: 1899, name: "Max", logoURL: URL(string: "https://image.tmdb.org/t/p/w92/max.jpg"))]]
  }
}
