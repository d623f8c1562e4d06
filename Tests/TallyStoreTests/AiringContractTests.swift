import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct AiringContractTests {
  @Test(arguments: StoreFactory.all)
  func aShowKeepsItsTMDBIDAndAUserHasEachTMDBShowOnce(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let got = try Show(id: UUID(), title: "Game of Thrones", status: .watching, tmdbID: 1399)
    try await store.saveShow(got, for: ada.id)
    #expect(try await store.show(id: got.id, for: ada.id).tmdbID == 1399)
    let copy = try Show(id: UUID(), title: "GoT", status: .watching, tmdbID: 1399)
    await #expect(throws: StoreError.conflict("another of your shows has TMDB id 1399")) {
      try await store.saveShow(copy, for: ada.id)
    }
    // Another user has their own copy of the same TMDB show.
    try await store.saveShow(copy, for: bob.id)
    #expect(try await store.shows(for: ada.id) == [got])
  }

  @Test(arguments: StoreFactory.all)
  func aFeedImportMatchesShowsByTitleAndUpdatesEpisodesInPlace(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let hulu = provider(15, "Hulu")
    let existing = show("The Bear", providers: ["US": [hulu]])
    try await store.saveShow(existing, for: ada.id)
    func feed(_ day: String) -> EpisodeFeed.Result {
      EpisodeFeed.Result(
        episodes: [
          FeedEpisode(showTitle: "the bear", season: 4, number: 1, title: "Groundhog", airDay: Day(day)!),
          FeedEpisode(showTitle: "Severance", season: 2, number: 1, title: "Hello", airDay: Day("2026-03-09")!),
        ],
        skipped: ["Dentist"])
    }
    let netflix = provider(8, "Netflix")
    let first = try await store.importFeed(feed("2026-03-10"), providers: ["us": [netflix]], for: ada.id)
    #expect(first == FeedImportReport(showsAdded: ["Severance"], episodesSaved: 2, skipped: ["Dentist"]))
    let second = try await store.importFeed(feed("2026-03-12"), providers: ["US": [netflix]], for: ada.id)
    #expect(second.showsAdded.isEmpty)

    let shows = try await store.shows(for: ada.id)
    #expect(shows.map(\.title) == ["Severance", "The Bear"])
    // The feed's provider joins the show's own, once.
    #expect(shows[1].providers(in: "US").map(\.id) == [15, 8])
    #expect(shows[0].providers(in: "US").map(\.id) == [8])
    let bear = try await store.episodes(of: existing.id, for: ada.id)
    #expect(bear.map(\.airDay) == [Day("2026-03-12")])
  }
}
