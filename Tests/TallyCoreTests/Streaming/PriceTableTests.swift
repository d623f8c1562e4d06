import Foundation
import TallyCore
import Testing

@Suite struct PriceTableTests {
  private func price(_ country: String, _ id: Int, _ amount: String, _ currency: String = "USD") -> Price {
    try! Price(country: country, providerID: id, amount: Decimal(string: amount)!, currency: currency)
  }

  @Test func looksUpByCountryAndProvider() throws {
    let table = try PriceTable([price("US", 8, "17.99"), price("AU", 8, "16.99", "AUD"), price("US", 15, "9.99")])
    #expect(table.price(country: "US", providerID: 8)?.amount == Decimal(string: "17.99"))
    #expect(table.price(country: "au", providerID: 8)?.currency == "AUD")
    #expect(table.price(country: "AU", providerID: 15) == nil)
    #expect(table.price(country: "GB", providerID: 8) == nil)
    #expect(table.price(country: "not a country", providerID: 8) == nil)
  }

  @Test func rejectsTwoPricesForOnePair() {
    #expect(throws: ValidationError(field: "prices", rule: "must price provider 8 in US only once")) {
      try PriceTable([price("US", 8, "17.99"), price("us", 8, "15.49")])
    }
  }

  @Test func isEditable() throws {
    var table = try PriceTable([price("US", 8, "17.99")])
    table.set(price("US", 8, "19.99"))
    #expect(table.price(country: "US", providerID: 8)?.amount == Decimal(string: "19.99"))
    table.set(price("US", 1899, "16.99"))
    #expect(table.prices.count == 2)
    table.removePrice(country: "us", providerID: 8)
    #expect(table.price(country: "US", providerID: 8) == nil)
    #expect(table.prices.map(\.providerID) == [1899])
    table.removePrice(country: "US", providerID: 1899)
    #expect(table.isEmpty)
  }

  @Test func codesAsASortedListOfPrices() throws {
    let table = try PriceTable([price("US", 15, "9.99"), price("AU", 8, "16.99", "AUD"), price("US", 8, "17.99")])
    let data = try JSONEncoder().encode(table)
    #expect(try JSONDecoder().decode(PriceTable.self, from: data) == table)
    let list = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(list.map { "\($0["country"]!)-\($0["providerID"]!)" } == ["AU-8", "US-8", "US-15"])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PriceTable.self, from: Data(#"[{"country":"US","providerID":8,"amount":1,"currency":"USD"},{"country":"US","providerID":8,"amount":2,"currency":"USD"}]"#.utf8))
    }
  }

  @Test func defaultsCoverTheFiveShippedCountriesInTheirCurrencies() {
    let expected = ["US": "USD", "AU": "AUD", "GB": "GBP", "CA": "CAD", "DE": "EUR"]
    let defaults = PriceTable.defaults
    #expect(Set(defaults.prices.map(\.country)) == Set(expected.keys))
    for price in defaults.prices {
      #expect(price.currency == expected[price.country], "\(price.country) \(price.providerID)")
      #expect(price.amount > 0 && price.amount < 30)
    }
    // Netflix, Prime Video, Disney Plus, Apple TV+ and Paramount+ are sold in all five.
    for country in expected.keys {
      for id in [8, 9, 337, 350, 531] {
        #expect(defaults.price(country: country, providerID: id) != nil, "\(country) \(id)")
      }
    }
    // The US-only services.
    for id in [15, 386, 1899] {
      #expect(defaults.price(country: "US", providerID: id) != nil)
    }
    #expect(defaults.price(country: "US", providerID: 8)?.amount == Decimal(string: "17.99"))
  }
}
