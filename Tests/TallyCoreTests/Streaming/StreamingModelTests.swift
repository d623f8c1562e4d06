import Foundation
import TallyCore
import Testing

@Suite struct StreamingModelTests {
  @Test func countryCodesAreTwoLettersAndUpperCased() throws {
    #expect(try CountryCode.normalized("us") == "US")
    #expect(try CountryCode.normalized("De") == "DE")
    for bad in ["", "U", "USA", "U1", "  ", "ÜS", "U S"] {
      #expect(throws: ValidationError.self, "\(bad)") { try CountryCode.normalized(bad) }
    }
    #expect(throws: ValidationError(field: "country", rule: "must be a two-letter ISO 3166 country code like US or DE, not 'USA'")) {
      try CountryCode.normalized("USA")
    }
  }

  @Test func currencyCodesAreThreeLettersAndUpperCased() throws {
    #expect(try CurrencyCode.normalized("eur") == "EUR")
    for bad in ["", "US", "EURO", "US$", "€"] {
      #expect(throws: ValidationError.self, "\(bad)") { try CurrencyCode.normalized(bad) }
    }
  }

  @Test func providerNeedsAPositiveIDAndAName() throws {
    #expect(try Provider(id: 8, name: "  Netflix ").name == "Netflix")
    #expect(throws: ValidationError(field: "provider.id", rule: "must be a positive TMDB provider id, not 0")) {
      try Provider(id: 0, name: "Netflix")
    }
    #expect(throws: ValidationError(field: "provider.name", rule: "must not be empty", kind: .empty)) {
      try Provider(id: 8, name: " \n")
    }
  }

  @Test func namesAndTitlesHoldingNulAreRefused() {
    let nul = "Net\u{0}flix"
    #expect(throws: ValidationError(field: "provider.name", rule: "must not contain the NUL character (U+0000)")) {
      try Provider(id: 8, name: nul)
    }
    #expect(throws: ValidationError(field: "show.title", rule: "must not contain the NUL character (U+0000)")) {
      try Show(id: UUID(), title: nul, status: .watching)
    }
    #expect(throws: ValidationError(field: "episode.title", rule: "must not contain the NUL character (U+0000)")) {
      try Episode(showID: UUID(), season: 1, number: 1, title: nul, airDay: Day(year: 2026, month: 3, day: 1)!)
    }
  }

  @Test func showNeedsATitleAndValidCountries() throws {
    let show = try Show(id: UUID(), title: " Dark ", status: .paused, providers: ["de": [Fixtures.netflix]])
    #expect(show.title == "Dark")
    #expect(show.providers(in: "DE") == [Fixtures.netflix])
    #expect(show.providers(in: "US") == [])
    #expect(throws: ValidationError(field: "show.title", rule: "must not be empty", kind: .empty)) {
      try Show(id: UUID(), title: "", status: .watching)
    }
    #expect(throws: ValidationError.self) {
      try Show(id: UUID(), title: "Dark", status: .watching, providers: ["Germany": [Fixtures.netflix]])
    }
    #expect(throws: ValidationError(field: "show.providers", rule: "must list each country once, but US appears twice")) {
      try Show(id: UUID(), title: "Dark", status: .watching, providers: ["us": [Fixtures.netflix], "US": [Fixtures.max]])
    }
  }

  @Test func episodeNumbersStartAtZeroAndNeedATitle() throws {
    let id = UUID()
    let special = try Episode(showID: id, season: 0, number: 0, title: "Pilot", airDay: Fixtures.day("2024-02-29"))
    #expect(special.season == 0 && special.number == 0)
    #expect(throws: ValidationError.self) { try Episode(showID: id, season: -1, number: 1, title: "x", airDay: special.airDay) }
    #expect(throws: ValidationError.self) { try Episode(showID: id, season: 1, number: -1, title: "x", airDay: special.airDay) }
    #expect(throws: ValidationError(field: "episode.title", rule: "must not be empty", kind: .empty)) {
      try Episode(showID: id, season: 1, number: 1, title: " ", airDay: special.airDay)
    }
  }

  @Test func priceValidatesEveryField() throws {
    let price = try Price(country: "au", providerID: 8, amount: Decimal(string: "16.99")!, currency: "aud")
    #expect(price.country == "AU" && price.currency == "AUD")
    #expect(try Price(country: "US", providerID: 8, amount: 0, currency: "USD").amount == 0)
    #expect(throws: ValidationError(field: "price.amount", rule: "must be a number of 0 or more, not -1", kind: .negative)) {
      try Price(country: "US", providerID: 8, amount: -1, currency: "USD")
    }
    #expect(throws: ValidationError.self) { try Price(country: "US", providerID: 8, amount: .nan, currency: "USD") }
    #expect(throws: ValidationError.self) { try Price(country: "USA", providerID: 8, amount: 1, currency: "USD") }
    #expect(throws: ValidationError.self) { try Price(country: "US", providerID: 8, amount: 1, currency: "$") }
    #expect(throws: ValidationError.self) { try Price(country: "US", providerID: -8, amount: 1, currency: "USD") }
  }

  @Test func modelsRoundTripThroughJSONWithCamelCaseKeys() throws {
    let show = try Show(id: UUID(), title: "Severance", status: .watching, providers: ["US": [Fixtures.appleTV, Fixtures.stan]])
    let episode = try Episode(showID: show.id, season: 2, number: 10, title: "Cold Harbor", airDay: Fixtures.day("2025-03-21"))
    let price = try Price(country: "US", providerID: 350, amount: Decimal(string: "12.99")!, currency: "USD")
    #expect(try JSONDecoder().decode(Show.self, from: JSONEncoder().encode(show)) == show)
    #expect(try JSONDecoder().decode(Episode.self, from: JSONEncoder().encode(episode)) == episode)
    #expect(try JSONDecoder().decode(Price.self, from: JSONEncoder().encode(price)) == price)

    let episodeJSON = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(episode)) as? [String: Any])
    #expect(Set(episodeJSON.keys) == ["showID", "season", "number", "title", "airDay"])
    #expect(episodeJSON["airDay"] as? String == "2025-03-21")
    let providerJSON = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(Fixtures.netflix)) as? [String: Any])
    #expect(Set(providerJSON.keys) == ["id", "name", "logoURL"])
    #expect(String(decoding: try JSONEncoder().encode(Fixtures.stan), as: UTF8.self).contains("logoURL") == false)
  }

  @Test func decodingAppliesTheSameRules() {
    let decoder = JSONDecoder()
    #expect(throws: DecodingError.self) { try decoder.decode(Provider.self, from: Data(#"{"id":8,"name":""}"#.utf8)) }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Show.self, from: Data(#"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","title":"X","status":"watching","providers":{"USA":[]}}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Show.self, from: Data(#"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","title":"X","status":"dropped"}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Episode.self, from: Data(#"{"showID":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","season":1,"number":1,"title":"X","airDay":"2025-02-30"}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Price.self, from: Data(#"{"country":"US","providerID":8,"amount":-1,"currency":"USD"}"#.utf8))
    }
  }

  @Test func priceAmountsDecodeExactly() throws {
    let price = try JSONDecoder().decode(Price.self, from: Data(#"{"country":"US","providerID":8,"amount":17.99,"currency":"USD"}"#.utf8))
    #expect(price.amount == Decimal(string: "17.99"))
  }
}
