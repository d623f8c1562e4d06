import Foundation
import TallyCore
import TallySQLite
import TallyStore
import TallyTMDB
import Testing

/// Adding and refreshing shows from TMDB, against the stub, into an in-memory store.
@Suite struct ShowSyncTests {
  static func storeWithUser() async throws -> (SQLiteStore, UUID) {
    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(
      User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "America/New_York")))
    return (store, user.id)
  }

  @Test func addingAShowStoresItsDatedEpisodesAndProviders() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let (store, user) = try await Self.storeWithUser()
      let sync = ShowSync(source: client, store: store)
      let report = try await sync.add(tmdbID: 1399, for: user)
      #expect(report.created)
      #expect(report.episodesSaved == 3)
      #expect(report.episodesWithoutDate == 2)
      let show = try await store.show(id: report.show.id, for: user)
      #expect(show.tmdbID == 1399)
      #expect(show.status == .watching)
      #expect(show.providers(in: "US").map(\.id) == [1899, 15])
      let episodes = try await store.episodes(of: show.id, for: user)
      #expect(episodes.map { [$0.season, $0.number] } == [[1, 1], [1, 2], [3, 1]])
      // A TMDB air date is already a day and is stored as it is, in every zone.
      #expect(episodes.map(\.airDay) == [Day("2011-04-17"), Day("2011-04-24"), Day("2026-03-01")])
    }
  }

  @Test func addingAgainUpdatesTheSameShowAndKeepsTheUsersOtherCountries() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let (store, user) = try await Self.storeWithUser()
      let sync = ShowSync(source: client, store: store)
      let first = try await sync.add(tmdbID: 1399, for: user)
      var providers = first.show.providers
      providers["AU"] = [try Provider(id: 8, name: "Netflix")]
      try await store.saveShow(
        Show(id: first.show.id, title: "GoT", status: .paused, providers: providers, tmdbID: 1399), for: user)

      let second = try await sync.add(tmdbID: 1399, for: user)
      #expect(!second.created)
      #expect(second.show.id == first.show.id)
      let shows = try await store.shows(for: user)
      #expect(shows.count == 1)
      #expect(shows[0].title == "Game of Thrones")
      #expect(shows[0].status == .paused)
      #expect(shows[0].providers(in: "AU").map(\.id) == [8])
      #expect(try await store.episodes(of: first.show.id, for: user).count == 3)

      let refreshed = try await sync.refresh(showID: first.show.id, for: user)
      #expect(refreshed.show.id == first.show.id)
      #expect(try await store.shows(for: user).count == 1)
    }
  }

  @Test func aShowFromACalendarFeedIsAdoptedByTitle() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let (store, user) = try await Self.storeWithUser()
      let fromFeed = try Show(id: UUID(), title: "game of thrones", status: .watching)
      try await store.saveShow(fromFeed, for: user)
      let report = try await ShowSync(source: client, store: store).add(tmdbID: 1399, for: user)
      #expect(report.show.id == fromFeed.id)
      #expect(try await store.shows(for: user).map(\.tmdbID) == [1399])
    }
  }

  @Test func aFailureHalfWayChangesNothing() async throws {
    let stub = TMDBStub()
    try await stub.withClient(key: "wrong") { client in
      let (store, user) = try await Self.storeWithUser()
      await #expect(throws: TMDBError.self) { try await ShowSync(source: client, store: store).add(tmdbID: 1399, for: user) }
      #expect(try await store.shows(for: user).isEmpty)
    }
  }

  @Test func refreshingAHandMadeShowSaysItHasNoTMDBID() async throws {
    let (store, user) = try await Self.storeWithUser()
    let show = try Show(id: UUID(), title: "Home Movies", status: .watching)
    try await store.saveShow(show, for: user)
    let client = TMDBClient(configuration: TMDBConfiguration(apiKey: "k", baseURL: "http://127.0.0.1:9/3"))
    await #expect(throws: ShowSyncError.notFromTMDB("Home Movies")) {
      try await ShowSync(source: client, store: store).refresh(showID: show.id, for: user)
    }
  }
}
