import Foundation
import Testing

@testable import TallyLocalization

@Suite struct LanguageTests {
  @Test func theSixteenCodesAreExactlyTheIssues() {
    #expect(Language.allCases.map(\.code) == [
      "en", "zh-Hans", "es", "ar", "pt-BR", "id", "fr", "ja", "ru", "de", "ko", "tr", "it", "pl", "nl", "uk",
    ])
  }

  /// Each endonym holds the name ICU gives the language in itself, so a typo or a name in
  /// the wrong language fails here.
  @Test(arguments: Language.allCases)
  func theEndonymIsTheLanguagesNameInItself(_ language: Language) throws {
    let base = try #require(language.locale.language.languageCode?.identifier)
    let ownName = try #require(language.locale.localizedString(forLanguageCode: base))
    #expect(language.endonym.lowercased().contains(ownName.lowercased()), "\(language.endonym) / \(ownName)")
  }

  @Test(arguments: Language.allCases)
  func theDirectionIsTheLocalesOwn(_ language: Language) {
    let rightToLeft = language.locale.language.characterDirection == .rightToLeft
    #expect(language.direction == (rightToLeft ? .rightToLeft : .leftToRight))
  }

  @Test func onlyArabicRunsRightToLeft() {
    #expect(Language.allCases.filter { $0.direction == .rightToLeft } == [.arabic])
    #expect(Language.arabic.direction.rawValue == "rtl")
  }

  @Test func aStoredSettingIsReadByItsExactCode() throws {
    #expect(try Language(code: "pt-BR") == .brazilianPortuguese)
    #expect(try Language(code: "zh-Hans") == .simplifiedChinese)
  }

  @Test(arguments: ["", "english", "pt", "zh-Hant", "EN", "xx", String(repeating: "q", count: 500)])
  func anUnknownCodeIsRefusedListingTheAcceptedOnes(_ code: String) {
    #expect(throws: UnknownLanguage(code: code)) { try Language(code: code) }
    let message = UnknownLanguage(code: code).description
    #expect(message.hasSuffix("accepted: en, zh-Hans, es, ar, pt-BR, id, fr, ja, ru, de, ko, tr, it, pl, nl, uk"))
    #expect(message.count < 200)
  }
}
