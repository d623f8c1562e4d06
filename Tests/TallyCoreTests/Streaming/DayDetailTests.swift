import Foundation
import TallyCore
import Testing

@Suite struct DayDetailTests {
  private func price(_ country: String, _ provider: Provider, _ amount: String, _ currency: String) -> Price {
    try! Price(country: country, providerID: provider.id, amount: Decimal(string: amount)!, currency: currency)
  }

  private func view(_ providers: [Provider], country: String = "US", on day: String = "2025-09-15") throws -> MonthView {
    let show = Fixtures.show("Show", [country: providers])
    return try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: day), country: country)
  }

  @Test func aDayWithoutProvidersOpensNothing() throws {
    let view = try view([Fixtures.netflix])
    #expect(view.detail(for: Fixtures.day("2025-09-14"), prices: .defaults) == nil)
    #expect(view.detail(for: Fixtures.day("2026-01-01"), prices: .defaults) == nil)
  }

  @Test func oneRowPerProviderInCellOrderWithTheTotal() throws {
    let prices = try PriceTable([
      price("US", Fixtures.netflix, "17.99", "USD"), price("US", Fixtures.max, "16.99", "USD"),
      price("US", Fixtures.hulu, "9.99", "USD"),
    ])
    let detail = try #require(try view([Fixtures.max, Fixtures.hulu, Fixtures.netflix]).detail(for: Fixtures.day("2025-09-15"), prices: prices))
    #expect(detail.rows.map(\.provider.name) == ["Netflix", "Hulu", "Max"])
    #expect(detail.rows.map(\.priceText) == ["$17.99", "$9.99", "$16.99"])
    #expect(detail.totalText == "TOTAL: $44.97")
    #expect(detail.totals.map(\.amount) == [Decimal(string: "44.97")!])
    #expect(detail.unpricedCount == 0)
    #expect(!detail.hasUnpricedRows)
  }

  @Test func totalCoversPricedRowsOnlyAndCountsTheRest() throws {
    let prices = try PriceTable([price("US", Fixtures.netflix, "17.99", "USD")])
    let detail = try #require(try view([Fixtures.netflix, Fixtures.stan, Fixtures.max]).detail(for: Fixtures.day("2025-09-15"), prices: prices))
    #expect(detail.rows.map(\.priceText) == ["$17.99", "—", "—"])
    #expect(detail.rows.map(\.price) == [prices.price(country: "US", providerID: 8), nil, nil])
    #expect(detail.totalText == "TOTAL: $17.99")
    #expect(detail.unpricedCount == 2)
    #expect(detail.hasUnpricedRows)
  }

  @Test func noPricedRowAtAllShowsADashTotal() throws {
    let detail = try #require(try view([Fixtures.stan]).detail(for: Fixtures.day("2025-09-15"), prices: PriceTable()))
    #expect(detail.totalText == "TOTAL: —")
    #expect(detail.totals.isEmpty)
    #expect(detail.unpricedCount == 1)
  }

  /// Prices of another country never leak into this one's detail.
  @Test func pricesComeFromTheViewsCountry() throws {
    let prices = try PriceTable([price("AU", Fixtures.netflix, "16.99", "AUD"), price("US", Fixtures.netflix, "17.99", "USD")])
    let au = try #require(try view([Fixtures.netflix], country: "AU").detail(for: Fixtures.day("2025-09-15"), prices: prices))
    #expect(au.rows.map(\.priceText) == ["$16.99"])
    #expect(au.totalText == "TOTAL: $16.99")
    #expect(au.totals.map(\.currency) == ["AUD"])
    let gb = try #require(try view([Fixtures.netflix], country: "GB").detail(for: Fixtures.day("2025-09-15"), prices: prices))
    #expect(gb.rows.map(\.priceText) == ["—"])
  }

  @Test func sumsAreExactDecimals() throws {
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004.
    let a = try Provider(id: 101, name: "Tenth", logoURL: nil)
    let b = try Provider(id: 102, name: "Fifth", logoURL: nil)
    let prices = try PriceTable([price("US", a, "0.1", "USD"), price("US", b, "0.2", "USD")])
    let detail = try #require(try view([a, b]).detail(for: Fixtures.day("2025-09-15"), prices: prices))
    #expect(detail.totals.first?.amount == Decimal(string: "0.3"))
    #expect(detail.totalText == "TOTAL: $0.30")
  }

  /// A user who priced one service in another currency gets one total per currency, in the
  /// order the currencies first appear, never a sum of dollars and euros.
  @Test func mixedCurrenciesAreTotalledSeparately() throws {
    let prices = try PriceTable([
      price("DE", Fixtures.netflix, "13.99", "EUR"), price("DE", Fixtures.max, "9.99", "USD"),
      price("DE", Fixtures.hulu, "5", "EUR"),
    ])
    let detail = try #require(try view([Fixtures.netflix, Fixtures.max, Fixtures.hulu], country: "DE").detail(for: Fixtures.day("2025-09-15"), prices: prices))
    #expect(detail.rows.map(\.priceText) == ["13,99 €", "5,00 €", "USD 9.99"])
    #expect(detail.totals.map(\.currency) == ["EUR", "USD"])
    #expect(detail.totalText == "TOTAL: 18,99 € + USD 9.99")
  }

  @Test func defaultPricesGiveTheSpecExample() throws {
    let detail = try #require(try view([Fixtures.netflix]).detail(for: Fixtures.day("2025-09-15"), prices: .defaults))
    #expect(detail.rows.first?.accessibilityLabel == "Netflix, $17.99, airing today")
    #expect(detail.totalText == "TOTAL: $17.99")
  }

  @Test func encodesRowsAndTotals() throws {
    let detail = try #require(try view([Fixtures.netflix, Fixtures.stan]).detail(for: Fixtures.day("2025-09-15"), prices: .defaults))
    let json = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(detail)) as? [String: Any])
    #expect(json["day"] as? String == "2025-09-15")
    #expect(json["totalText"] as? String == "TOTAL: $17.99")
    #expect(json["unpricedCount"] as? Int == 1)
    let rows = try #require(json["rows"] as? [[String: Any]])
    #expect(rows.map { $0["priceText"] as? String } == ["$17.99", "—"])
  }
}
