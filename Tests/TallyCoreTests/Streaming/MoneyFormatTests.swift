import Foundation
import TallyCore
import Testing

@Suite struct MoneyFormatTests {
  private func format(_ amount: String, _ currency: String, _ country: String) -> String {
    MoneyFormat.string(Decimal(string: amount)!, currency: currency, country: country)
  }

  @Test(arguments: [
    ("17.99", "USD", "US", "$17.99"),
    ("16.99", "AUD", "AU", "$16.99"),
    ("18.99", "CAD", "CA", "$18.99"),
    ("10.99", "GBP", "GB", "£10.99"),
    ("9.99", "EUR", "DE", "9,99 €"),
    ("0", "USD", "US", "$0.00"),
    ("5", "EUR", "DE", "5,00 €"),
    ("0.5", "GBP", "GB", "£0.50"),
    ("1234.5", "USD", "US", "$1,234.50"),
    ("1234567.891", "EUR", "DE", "1.234.567,89 €"),
  ])
  func writesEachCountrysOwnCurrencyItsWay(amount: String, currency: String, country: String, expected: String) {
    #expect(format(amount, currency, country) == expected)
  }

  @Test func roundsHalfUpToCents() {
    #expect(format("17.985", "USD", "US") == "$17.99")
    #expect(format("17.984", "USD", "US") == "$17.98")
    #expect(format("0.005", "USD", "US") == "$0.01")
    #expect(format("999.995", "USD", "US") == "$1,000.00")
  }

  /// A dollar sign alone would pass US dollars off as Australian ones.
  @Test func foreignOrUnknownCurrenciesUseTheISOCode() {
    #expect(format("17.99", "USD", "AU") == "USD 17.99")
    #expect(format("9.99", "EUR", "US") == "EUR 9.99")
    #expect(format("1500", "SEK", "SE") == "SEK 1,500.00")
  }

  @Test func acceptsCodesInAnyCase() {
    #expect(format("17.99", "usd", "us") == "$17.99")
  }
}

@Suite struct StreamingAccessibilityTests {
  @Test func listsNamesTheEnglishWay() {
    #expect(StreamingAccessibility.list([]) == "")
    #expect(StreamingAccessibility.list(["Netflix"]) == "Netflix")
    #expect(StreamingAccessibility.list(["Netflix", "Max"]) == "Netflix and Max")
    #expect(StreamingAccessibility.list(["Netflix", "Max", "Hulu"]) == "Netflix, Max and Hulu")
  }

  @Test func dayCellWithOneProvider() throws {
    let show = Fixtures.show("Wednesday", ["US": [Fixtures.netflix]])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-01"))
    #expect(view.cell(for: Fixtures.day("2025-09-01"))?.accessibilityLabel == "Netflix on Monday 1 September")
  }

  @Test func dayCellWithSeveralProvidersInDisplayOrder() throws {
    let show = Fixtures.show("Everything", ["US": [Fixtures.max, Fixtures.hulu, Fixtures.netflix]])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-01"))
    #expect(view.cell(for: Fixtures.day("2025-09-01"))?.accessibilityLabel == "Netflix, Hulu and Max on Monday 1 September")
  }

  @Test func emptyDayCellIsJustTheDate() throws {
    let view = try Fixtures.september(shows: [], episodes: [])
    #expect(view.cell(for: Fixtures.day("2025-08-31"))?.accessibilityLabel == "Sunday 31 August")
    #expect(view.cell(for: Fixtures.day("2025-10-11"))?.accessibilityLabel == "Saturday 11 October")
  }

  @Test func leapDayName() throws {
    let calendar = Fixtures.calendar("Australia/Lord_Howe")
    #expect(calendar.spokenName(of: Fixtures.day("2024-02-29")) == "Thursday 29 February")
  }

  @Test func namesFollowTheCalendarsLocale() throws {
    let french = try DayCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!, locale: Locale(identifier: "fr_FR"))
    #expect(french.spokenName(of: Fixtures.day("2025-09-01")) == "lundi 1 septembre")
  }

  @Test func detailRowsSayWhenTheEpisodeAirs() throws {
    let show = Fixtures.show("Wednesday", ["US": [Fixtures.netflix, Fixtures.stan]])
    let view = try Fixtures.september(
      shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-01", "2025-09-15", "2025-09-20"))
    func labels(_ day: String) throws -> [String] {
      try #require(view.detail(for: Fixtures.day(day), prices: .defaults)).rows.map(\.accessibilityLabel)
    }
    #expect(try labels("2025-09-15") == ["Netflix, $17.99, airing today", "Stan, no price set, airing today"])
    #expect(try labels("2025-09-20") == ["Netflix, $17.99, airing Saturday 20 September", "Stan, no price set, airing Saturday 20 September"])
    #expect(try labels("2025-09-01") == ["Netflix, $17.99, aired Monday 1 September", "Stan, no price set, aired Monday 1 September"])
  }
}
