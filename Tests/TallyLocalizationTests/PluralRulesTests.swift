import Foundation
import PropertyBased
import Testing

@testable import TallyLocalization

/// ICU's plural categories against the examples CLDR's charts give for each language.
@Suite struct PluralRulesTests {
  @Test(arguments: [
    ("ar", [0: PluralCategory.zero, 1: .one, 2: .two, 3: .few, 11: .many, 100: .other]),
    ("pl", [1: .one, 2: .few, 5: .many, 22: .few]),
    ("ru", [1: .one, 2: .few, 5: .many, 11: .many, 21: .one, 101: .one]),
    ("uk", [1: .one, 3: .few, 12: .many, 24: .few]),
    ("ja", [0: .other, 1: .other, 2: .other]),
    ("zh-Hans", [0: .other, 1: .other, 2: .other]),
    ("ko", [0: .other, 1: .other, 2: .other]),
    ("en", [0: .other, 1: .one, 2: .other]),
    ("fr", [0: .one, 1: .one, 2: .other, 1_000_000: .many]),
    ("pt-BR", [0: .one, 1: .one, 2: .other]),
    ("de", [0: .other, 1: .one, 2: .other]),
  ])
  func categoryOfACount(code: String, expected: [Int: PluralCategory]) throws {
    let rules = try PluralRules(localeIdentifier: code)
    for (count, category) in expected {
      #expect(rules.category(for: count) == category, "\(code) \(count)")
    }
  }

  @Test func eachLanguageNamesTheCategoriesItsNumbersTake() {
    let expected: [Language: Set<PluralCategory>] = [
      .arabic: Set(PluralCategory.allCases),
      .polish: [.one, .few, .many, .other],
      .russian: [.one, .few, .many, .other],
      .english: [.one, .other],
      .japanese: [.other],
      .simplifiedChinese: [.other],
    ]
    for (language, categories) in expected {
      #expect(PluralRules(language: language).categories == categories, "\(language.code)")
    }
  }

  /// For every count up to 10 000 in every language, ICU agrees with the integer rules as
  /// CLDR's chart writes them (`CLDRIntegerRules`) and names a category it lists.
  @Test func icuAgreesWithCLDRsChartForEveryCountUpToTenThousand() {
    for language in Language.allCases {
      let rules = PluralRules(language: language)
      let disagreeing = (0...10_000).filter {
        let category = rules.category(for: $0)
        return category != CLDRIntegerRules.category(language, $0) || !rules.categories.contains(category)
      }
      #expect(disagreeing.isEmpty, "\(language.code): \(disagreeing.prefix(5))")
    }
  }

  /// A catalog holding exactly the categories a language names yields, for any count, that
  /// count's own form, with nothing reported missing.
  @Test func pluralPicksTheFormOfTheCountsCategoryInEveryLanguage() async {
    let languages = Language.allCases.map { language in
      let rules = PluralRules(language: language)
      let forms = rules.categories.map { ("n_\($0.rawValue)", "\($0.rawValue) {{count}}") }
      return (language, rules, Catalog(strings: Dictionary(uniqueKeysWithValues: forms)))
    }
    let warnings = Warnings()
    await propertyCheck(count: 3000, input: zip(Gen.int(in: 0...10_000), Gen.int(in: 0..<languages.count))) {
      count, index in
      let (language, rules, catalog) = languages[index]
      let category = rules.category(for: count)
      #expect(category == CLDRIntegerRules.category(language, count), "\(language.code) \(count)")
      #expect(rules.categories.contains(category))
      let translator = Translator(
        code: language.code, locale: Locale(identifier: "en"), catalog: catalog,
        rules: rules, english: Catalog(strings: [:]), englishRules: rules, missing: warnings.log)
      #expect(translator.plural("n", count: count, ["count": "\(count)"]) == "\(category.rawValue) \(count)")
    }
    #expect(warnings.lines.isEmpty)
  }

  @Test func anIdentifierICUDoesNotKnowGetsTheRootRules() throws {
    #expect(try PluralRules(localeIdentifier: "xx-unknown").categories == [.other])
  }
}
