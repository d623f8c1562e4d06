import TallyCore
import TallyWire
import Testing

/// The calendar's default country is the locale's region, wherever the locale names it.
@Suite struct CalendarCountryTests {
  @Test(arguments: [("en_US", "US"), ("de-DE", "DE"), ("zh_Hans_CN", "CN"), ("sr_Latn_RS", "RS")])
  func theRegionIsTheCountry(locale: String, country: String) {
    #expect(MonthView.country(ofLocale: locale) == country)
  }

  @Test(arguments: ["en", "zh_Hans", ""])
  func aLocaleWithoutARegionNamesNone(locale: String) {
    #expect(MonthView.country(ofLocale: locale) == nil)
  }
}
