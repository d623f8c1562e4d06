import Testing

@testable import TallyLocalization

@Suite struct LanguageNegotiationTests {
  @Test(arguments: [
    ("de-DE,de;q=0.9,en;q=0.8", Language.german),
    ("en-GB,en;q=0.9", .english),
    ("pt-PT", .brazilianPortuguese),
    ("pt", .brazilianPortuguese),
    ("PT-br", .brazilianPortuguese),
    ("zh", .simplifiedChinese),
    ("zh-CN", .simplifiedChinese),
    ("zh-SG", .simplifiedChinese),
    ("zh-Hans-CN", .simplifiedChinese),
    ("zh-TW,ja;q=0.5", .japanese),
    ("zh-Hant,fr;q=0.1", .french),
    ("zh-HK", .english),
    ("fr;q=0.3, uk;q=0.7, ar;q=0.5", .ukrainian),
    ("sv-SE,nb;q=0.9,pl;q=0.8", .polish),
    ("es-419", .spanish),
    ("ja;q=0.8,ko;q=0.8", .japanese),
    ("*;q=0.9,de;q=0.5", .english),
    ("de;q=0,fr", .french),
    ("fr;q=1.5,it", .italian),
    ("fr;q=abc,it;q=0.2", .italian),
    ("sv,fi", .english),
    ("", .english),
    (";;,,=,;q=", .english),
  ])
  func theBestLanguageTallySpeaks(header: String, expected: Language) {
    #expect(LanguageNegotiation.language(forAcceptLanguage: header) == expected, "\(header)")
  }

  @Test func noHeaderIsEnglish() {
    #expect(LanguageNegotiation.language(forAcceptLanguage: nil) == .english)
  }

  @Test func onlyTheFirstRangesOfALongHeaderAreRead() {
    let many = Array(repeating: "sv", count: LanguageNegotiation.maxEntries) + ["de"]
    #expect(LanguageNegotiation.language(forAcceptLanguage: many.joined(separator: ",")) == .english)
    let fewer = Array(repeating: "sv", count: LanguageNegotiation.maxEntries - 1) + ["de"]
    #expect(LanguageNegotiation.language(forAcceptLanguage: fewer.joined(separator: ",")) == .german)
  }

  @Test func onlyTheFirstBytesOfAHugeHeaderAreRead() {
    let padding = "x-" + String(repeating: "a", count: LanguageNegotiation.maxHeaderBytes)
    #expect(LanguageNegotiation.language(forAcceptLanguage: "\(padding),de") == .english)
    #expect(LanguageNegotiation.language(forAcceptLanguage: "fr;q=0.1,\(padding),de") == .french)
    // The range the limit cuts through (`de-AT` to `de`) is dropped, not read as a shorter tag.
    let cut = "sv," + String(repeating: " ", count: LanguageNegotiation.maxHeaderBytes - 6) + ",de-AT"
    #expect(cut.utf8.count == LanguageNegotiation.maxHeaderBytes + 3)
    #expect(LanguageNegotiation.language(forAcceptLanguage: cut) == .english)
    #expect(LanguageNegotiation.language(forAcceptLanguage: String(cut.dropLast(3))) == .german)
  }

  /// A new account's locale: the browser's region when it names one, a bare language its
  /// likeliest region, whatever language Tally speaks (Swedish has no file, Sweden a calendar).
  @Test(arguments: [
    ("de-DE,de;q=0.9,en;q=0.8", "de_DE"),
    ("en-GB,en;q=0.8", "en_GB"),
    ("de", "de_DE"),
    ("en", "en_US"),
    ("sv-SE", "sv_SE"),
    ("fr;q=0.5,pt-BR", "pt_BR"),
    ("zh-Hans-CN", "zh_Hans_CN"),
    ("zh", "zh_Hans_CN"),
  ])
  func aNewAccountsLocaleComesFromTheBrowser(header: String, locale: String) {
    #expect(LanguageNegotiation.locale(forAcceptLanguage: header) == locale)
  }

  @Test(arguments: [nil, "*", "", "x-klingon", "de;q=0"])
  func noLocaleWithoutARangeThatNamesOne(header: String?) {
    #expect(LanguageNegotiation.locale(forAcceptLanguage: header) == nil)
  }
}
