import Foundation
import Testing

@testable import TallyLocalization

@Suite struct PseudoLocalizationTests {
  let english = Catalog(strings: [
    "nav.today": "Today",
    "habits.count_one": "{{count}} habit",
    "habits.count_other": "{{count}} habits, {{ name }}'s",
    "empty": "",
  ])

  @Test func everyStringIsWrappedAccentedAndAboutFortyPercentLonger() throws {
    let pseudo = PseudoLocalization.catalog(from: english)
    let today = try #require(pseudo["nav.today"]?.source)
    #expect(today.hasPrefix(PseudoLocalization.open) && today.hasSuffix(PseudoLocalization.close))
    let inside = today.dropFirst().dropLast()
    #expect(!inside.contains("Today"))
    #expect(inside.count >= Int(Double("Today".count) * 1.4))
    for template in pseudo.templates.values {
      #expect(template.source.hasPrefix("⟦") && template.source.hasSuffix("⟧"))
    }
  }

  @Test func placeholdersAndPluralKeysAreKept() throws {
    let pseudo = PseudoLocalization.catalog(from: english)
    #expect(Set(pseudo.keys) == Set(english.keys))
    for (key, template) in english.templates {
      #expect(pseudo[key]?.placeholders == template.placeholders, "\(key)")
    }
    #expect(CatalogParity.problems(in: pseudo, rules: PluralRules(language: .english), english: english).isEmpty)
  }

  @Test func thePseudoTranslatorFillsPlaceholdersInsideTheMarkers() {
    let translator = Translations(catalogs: [.english: english], missing: .silent).pseudoTranslator()
    #expect(translator.code == "qps")
    let text = translator.plural("habits.count", count: 2, ["name": "Ana"])
    #expect(text.hasPrefix("⟦2 ") && text.contains("Ana") && text.hasSuffix("⟧"))
    #expect(!Language.allCases.map(\.code).contains(translator.code))
  }
}
