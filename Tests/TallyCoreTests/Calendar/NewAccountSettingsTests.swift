import Foundation
import TallyCore
import Testing

/// A new account's week starts where its locale starts it, unless the locale is unknown.
@Suite struct NewAccountSettingsTests {
  @Test(arguments: [
    ("en_US", Weekday.sunday), ("de_DE", .monday), ("en_GB", .monday), ("fr_FR", .monday), ("ja_JP", .sunday),
    ("ar_EG", .saturday), ("pt_BR", .sunday),
  ])
  func theWeekStartsWhereTheLocaleStartsIt(locale: String, first: Weekday) throws {
    let settings = UserSettings.newAccount(timeZone: "Europe/Berlin", locale: locale)
    #expect(settings.locale == locale)
    #expect(settings.firstWeekday == first)
    #expect(settings.timeZone == "Europe/Berlin")
    #expect(settings.language == nil)
    #expect(try settings.validated() == settings)
  }

  @Test(arguments: [nil, "xx_YY", ""])
  func anUnknownLocaleIsAmericanEnglish(locale: String?) {
    let settings = UserSettings.newAccount(timeZone: "UTC", locale: locale)
    #expect(settings == UserSettings(timeZone: "UTC"))
  }
}
