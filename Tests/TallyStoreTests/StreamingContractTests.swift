import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct StreamingContractTests {
  @Test(arguments: StoreFactory.all)
  func showsKeepTheirProvidersInOrder(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let netflix = provider(8, "Netflix", logo: "https://image.tmdb.org/t/p/w92/netflix.jpg")
    let max = provider(1899, "Max")
    let hulu = provider(15, "Hulu")
    let severance = show("Severance", providers: ["US": [max, netflix, hulu], "AU": [netflix]])
    let andor = show("Andor", status: .paused)
    let bear = show("The Bear", status: .finished, providers: ["GB": [hulu]])
    for show in [severance, andor, bear] {
      try await store.saveShow(show, for: ada.id)
    }
    #expect(try await store.show(id: severance.id, for: ada.id) == severance)
    #expect(try await store.shows(for: ada.id) == [andor, severance, bear])

    let changed = try Show(id: severance.id, title: "Severance", status: .finished, providers: ["US": [hulu]])
    try await store.saveShow(changed, for: ada.id)
    try await store.saveShow(changed, for: ada.id)
    #expect(try await store.show(id: severance.id, for: ada.id) == changed)
    #expect(try await store.shows(for: ada.id).count == 3)
  }

  @Test(arguments: StoreFactory.all)
  func aProviderListedTwiceIsRefused(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let twice = show("Twice", providers: ["US": [provider(8, "Netflix"), provider(8, "Netflix")]])
    await #expect(throws: StoreError.conflict("the show 'Twice' lists provider 8 twice in US")) {
      try await store.saveShow(twice, for: ada.id)
    }
    #expect(try await store.shows(for: ada.id).isEmpty)
    let missing = UUID()
    await #expect(throws: StoreError.notFound(.show(missing))) { try await store.show(id: missing, for: ada.id) }
  }

  @Test(arguments: StoreFactory.all)
  func episodesAreUpsertedAndFoundByAirDay(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let a = show("A")
    let b = show("B")
    try await store.saveShow(a, for: ada.id)
    try await store.saveShow(b, for: ada.id)
    try await store.saveEpisodes(
      [episode(a, 1, 2, "2026-03-08"), episode(a, 1, 1, "2026-03-01"), episode(a, 0, 1, "2025-12-24"),
       episode(b, 3, 1, "2026-03-08")],
      for: ada.id)
    #expect(try await store.episodes(of: a.id, for: ada.id).map { [$0.season, $0.number] } == [[0, 1], [1, 1], [1, 2]])

    // Saving the same (show, season, number) replaces title and air day.
    let moved = try Episode(showID: a.id, season: 1, number: 2, title: "Moved", airDay: day("2026-03-09"))
    try await store.saveEpisodes([moved], for: ada.id)
    #expect(try await store.episodes(of: a.id, for: ada.id).last == moved)

    let week = try await store.episodes(airingIn: day("2026-03-01")...day("2026-03-09"), for: ada.id)
    #expect(week == [episode(a, 1, 1, "2026-03-01"), episode(b, 3, 1, "2026-03-08"), moved])

    // One episode of a show that is not the user's stops the whole batch.
    let stranger = show("Stranger")
    await #expect(throws: StoreError.notFound(.show(stranger.id))) {
      try await store.saveEpisodes([episode(a, 9, 9, "2026-01-01"), episode(stranger, 1, 1, "2026-01-01")], for: ada.id)
    }
    #expect(try await store.episodes(of: a.id, for: ada.id).count == 3)
  }

  @Test(arguments: StoreFactory.all)
  func deletingAShowTakesItsEpisodes(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let gone = show("Gone", providers: ["US": [provider(8, "Netflix")]])
    let kept = show("Kept")
    try await store.saveShow(gone, for: ada.id)
    try await store.saveShow(kept, for: ada.id)
    try await store.saveEpisodes([episode(gone, 1, 1, "2026-03-01"), episode(kept, 1, 1, "2026-03-01")], for: ada.id)
    try await store.deleteShow(id: gone.id, for: ada.id)
    await #expect(throws: StoreError.notFound(.show(gone.id))) { try await store.show(id: gone.id, for: ada.id) }
    await #expect(throws: StoreError.notFound(.show(gone.id))) { try await store.deleteShow(id: gone.id, for: ada.id) }
    #expect(try await store.shows(for: ada.id) == [kept])
    #expect(try await store.episodes(airingIn: day("2026-03-01")...day("2026-03-01"), for: ada.id).map(\.showID) == [kept.id])
    // Saved again, it comes back without its old episodes.
    try await store.saveShow(gone, for: ada.id)
    #expect(try await store.episodes(of: gone.id, for: ada.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func pricesAreSetReplacedAndRemoved(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    #expect(try await store.priceTable(for: ada.id).isEmpty)
    try await store.setPrice(price("us", 8, "17.99", "usd"), for: ada.id)
    try await store.setPrice(price("AU", 8, "18.99", "AUD"), for: ada.id)
    try await store.setPrice(price("US", 1899, "0", "USD"), for: ada.id)
    try await store.setPrice(price("US", 8, "19.49", "USD"), for: ada.id)
    let table = try await store.priceTable(for: ada.id)
    #expect(table.prices == [price("AU", 8, "18.99", "AUD"), price("US", 8, "19.49", "USD"), price("US", 1899, "0", "USD")])
    #expect(table.price(country: "us", providerID: 8)?.amount == Decimal(string: "19.49"))

    try await store.removePrice(country: "us", providerID: 8, for: ada.id)
    try await store.removePrice(country: "US", providerID: 8, for: ada.id)
    try await store.removePrice(country: "not a country", providerID: 8, for: ada.id)
    #expect(try await store.priceTable(for: ada.id).prices.map(\.providerID) == [8, 1899])
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.setPrice(price("US", 8, "1", "USD"), for: nobody)
    }
  }
}
