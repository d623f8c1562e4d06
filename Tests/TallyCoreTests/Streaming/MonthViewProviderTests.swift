import Foundation
import TallyCore
import Testing

@Suite struct MonthViewProviderTests {
  private func providerNames(_ view: MonthView, _ day: String) -> [String] {
    view.cell(for: Fixtures.day(day))?.providers.map(\.name) ?? []
  }

  @Test func onlyDaysWithAnEpisodeHaveProviders() throws {
    let show = Fixtures.show("Stranger Things", ["US": [Fixtures.netflix]])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-03", "2025-09-17"))
    let lit = view.cells.filter { !$0.providers.isEmpty }.map(\.day.description)
    #expect(lit == ["2025-09-03", "2025-09-17"])
    #expect(providerNames(view, "2025-09-03") == ["Netflix"])
  }

  /// Nothing carries over: last month's episodes do not light this month's days, and a
  /// borrowed day shows exactly what it shows in its own month.
  @Test func noCarryOverBetweenMonths() throws {
    let show = Fixtures.show("The Bear", ["US": [Fixtures.hulu]])
    let episodes = Fixtures.episodes(of: show, on: "2025-08-20", "2025-08-31", "2025-10-20")
    let september = try Fixtures.september(shows: [show], episodes: episodes)
    #expect(september.cells.filter(\.isInMonth).allSatisfy { $0.providers.isEmpty })
    #expect(providerNames(september, "2025-08-31") == ["Hulu"])
    #expect(september.cell(for: Fixtures.day("2025-08-31"))?.isInMonth == false)
    #expect(september.cell(for: Fixtures.day("2025-08-20")) == nil)

    let august = try MonthView(
      month: Fixtures.month("2025-08"), country: "US", shows: [show], episodes: episodes,
      calendar: Fixtures.newYork, today: Fixtures.day("2025-09-15"))
    #expect(august.cell(for: Fixtures.day("2025-08-31"))?.providers == september.cell(for: Fixtures.day("2025-08-31"))?.providers)
    #expect(providerNames(august, "2025-08-20") == ["Hulu"])
    let october = try MonthView(
      month: Fixtures.month("2025-10"), country: "US", shows: [show], episodes: episodes,
      calendar: Fixtures.newYork, today: Fixtures.day("2025-09-15"))
    #expect(october.cells.filter { !$0.providers.isEmpty }.map(\.day.description) == ["2025-10-20"])
  }

  @Test(arguments: [ShowStatus.paused, .finished])
  func onlyWatchingShowsCount(status: ShowStatus) throws {
    let watching = Fixtures.show("Andor", ["US": [Fixtures.disney]])
    let other = Fixtures.show("Succession", ["US": [Fixtures.max]], status: status)
    let episodes = Fixtures.episodes(of: watching, on: "2025-09-10") + Fixtures.episodes(of: other, on: "2025-09-10", "2025-09-11")
    let view = try Fixtures.september(shows: [watching, other], episodes: episodes)
    #expect(providerNames(view, "2025-09-10") == ["Disney Plus"])
    #expect(providerNames(view, "2025-09-11") == [])
  }

  /// Issue 29: a broadcast show, a Plex library or a show with no provider in this country
  /// still shows on its day, named by its title, as a plain mark when nothing else airs.
  @Test func aShowWithNoProviderInTheCountryStillShowsOnItsDay() throws {
    let broadcast = Fixtures.show("The Bake Off", [:])
    let elsewhere = Fixtures.show("Mr Inbetween", ["AU": [Fixtures.netflix]])
    let streaming = Fixtures.show("Andor", ["US": [Fixtures.disney]])
    let paused = Fixtures.show("Taskmaster", [:], status: .paused)
    let episodes =
      Fixtures.episodes(of: broadcast, on: "2025-09-10", "2025-09-11") + Fixtures.episodes(of: elsewhere, on: "2025-09-11")
      + Fixtures.episodes(of: streaming, on: "2025-09-11") + Fixtures.episodes(of: paused, on: "2025-09-12")
    let view = try Fixtures.september(shows: [broadcast, elsewhere, streaming, paused], episodes: episodes)

    let alone = try #require(view.cell(for: Fixtures.day("2025-09-10")))
    #expect(alone.providers.isEmpty && alone.showsWithoutProvider == ["The Bake Off"])
    #expect(alone.display == .plain && alone.hasAiring)
    #expect(alone.accessibilityLabel == "The Bake Off on Wednesday 10 September")
    let detail = try #require(view.detail(for: alone.day, prices: PriceTable()))
    #expect(detail.rows.isEmpty && detail.showsWithoutProvider == ["The Bake Off"])

    let shared = try #require(view.cell(for: Fixtures.day("2025-09-11")))
    #expect(shared.providers.map(\.name) == ["Disney Plus"])
    #expect(shared.showsWithoutProvider == ["Mr Inbetween", "The Bake Off"])
    #expect(shared.accessibilityLabel == "Disney Plus, Mr Inbetween and The Bake Off on Thursday 11 September")
    #expect(view.cell(for: Fixtures.day("2025-09-12"))?.hasAiring == false)
  }

  @Test func onlyTheSelectedCountrysProvidersCount() throws {
    let show = Fixtures.show("Bluey", ["US": [Fixtures.disney], "AU": [Fixtures.stan], "de": [Fixtures.netflix]])
    let alsoAU = Fixtures.show("Mr Inbetween", ["AU": [Fixtures.netflix]])
    let episodes = Fixtures.episodes(of: show, on: "2025-09-12") + Fixtures.episodes(of: alsoAU, on: "2025-09-12")
    #expect(providerNames(try Fixtures.september(shows: [show, alsoAU], episodes: episodes, country: "US"), "2025-09-12") == ["Disney Plus"])
    #expect(providerNames(try Fixtures.september(shows: [show, alsoAU], episodes: episodes, country: "AU"), "2025-09-12") == ["Netflix", "Stan"])
    #expect(providerNames(try Fixtures.september(shows: [show, alsoAU], episodes: episodes, country: "DE"), "2025-09-12") == ["Netflix"])
    #expect(providerNames(try Fixtures.september(shows: [show, alsoAU], episodes: episodes, country: "GB"), "2025-09-12") == [])
  }

  @Test func providersAreDistinctAcrossShowsAndEpisodes() throws {
    let one = Fixtures.show("Wednesday", ["US": [Fixtures.netflix]])
    let two = Fixtures.show("Squid Game", ["US": [Fixtures.netflix, Fixtures.netflix]])
    let episodes = Fixtures.episodes(of: one, on: "2025-09-04", "2025-09-04") + Fixtures.episodes(of: two, on: "2025-09-04")
    let view = try Fixtures.september(shows: [one, two], episodes: episodes)
    #expect(providerNames(view, "2025-09-04") == ["Netflix"])
  }

  @Test func episodesOfUnknownShowsAreIgnored() throws {
    let known = Fixtures.show("Known", ["US": [Fixtures.netflix]])
    let unknown = Fixtures.show("Not on the watchlist", ["US": [Fixtures.max]])
    let view = try Fixtures.september(shows: [known], episodes: Fixtures.episodes(of: unknown, on: "2025-09-09"))
    #expect(view.cells.allSatisfy { $0.providers.isEmpty })
  }

  /// The same provider id fetched twice with different details is one provider; the show
  /// listed first decides its name, whatever order the episodes come in.
  @Test func firstListedShowDecidesAProvidersDetails() throws {
    let renamed = try Provider(id: 1899, name: "HBO Max", logoURL: Fixtures.logo("hbomax"))
    let first = Fixtures.show("The Last of Us", ["US": [renamed]])
    let second = Fixtures.show("The Pitt", ["US": [Fixtures.max]])
    let episodes = Fixtures.episodes(of: second, on: "2025-09-08") + Fixtures.episodes(of: first, on: "2025-09-08")
    let view = try Fixtures.september(shows: [first, second], episodes: episodes)
    #expect(providerNames(view, "2025-09-08") == ["HBO Max"])
    let reversed = try Fixtures.september(shows: [first, second], episodes: episodes.reversed())
    #expect(providerNames(reversed, "2025-09-08") == ["HBO Max"])
  }

  @Test func primaryIsTheLongestNameThenTheLowestID() throws {
    let show = Fixtures.show("Everything", ["US": [Fixtures.max, Fixtures.hulu, Fixtures.netflix, Fixtures.peacock]])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-02"))
    let cell = try #require(view.cell(for: Fixtures.day("2025-09-02")))
    // Netflix and Peacock both have 7 letters: id 8 beats id 386.
    #expect(cell.providers.map(\.name) == ["Netflix", "Peacock", "Hulu", "Max"])
    #expect(cell.primary == Fixtures.netflix)
  }

  @Test func primaryTieBreakIgnoresInputOrder() throws {
    let a = try Provider(id: 40, name: "Alpha", logoURL: nil)
    let b = try Provider(id: 7, name: "Bravo", logoURL: nil)
    let c = try Provider(id: 900, name: "Delta TV", logoURL: nil)
    #expect([a, b].sorted(by: Provider.displayOrder) == [b, a])
    #expect([b, a].sorted(by: Provider.displayOrder) == [b, a])
    #expect([a, b, c].sorted(by: Provider.displayOrder) == [c, b, a])
    let show = Fixtures.show("Ties", ["US": [a, b]])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-02"))
    #expect(view.cell(for: Fixtures.day("2025-09-02"))?.primary == b)
  }

  @Test func aDayWithoutProvidersHasNoPrimaryAndShowsNothing() throws {
    let view = try Fixtures.september(shows: [], episodes: [])
    let cell = try #require(view.cell(for: Fixtures.day("2025-09-02")))
    #expect(cell.primary == nil)
    #expect(cell.display == .none)
  }
}
