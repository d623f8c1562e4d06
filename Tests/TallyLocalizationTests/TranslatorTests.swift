import Foundation
import Testing

@testable import TallyLocalization

@Suite struct TranslatorTests {
  let english = Catalog(strings: [
    "save": "Save", "greeting": "Hello {{name}}", "only.english": "Only here",
    "habits_one": "{{count}} habit", "habits_other": "{{count}} habits", "habits_zero": "No habits yet",
    "days_one": "{{count}} day", "days_other": "{{count}} days",
  ])
  let german = Catalog(strings: [
    "save": "Sichern", "greeting": "Hallo {{name}}",
    "habits_one": "{{count}} Gewohnheit", "habits_other": "{{count}} Gewohnheiten",
  ])

  func translations(_ warnings: Warnings) -> Translations {
    Translations(catalogs: [.english: english, .german: german], missing: warnings.log)
  }

  @Test func aStringComesFromTheLanguageWithItsValues() {
    let german = translations(Warnings()).translator(for: .german)
    #expect(german.text("save") == "Sichern")
    #expect(german.text("greeting", ["name": "Jo"]) == "Hallo Jo")
  }

  @Test func aMissingStringIsEnglishAndWarnedOncePerLanguageAndKey() {
    let warnings = Warnings()
    let all = translations(warnings)
    for _ in 0..<3 { #expect(all.translator(for: .german).text("only.english") == "Only here") }
    #expect(all.translator(for: .french).text("only.english") == "Only here")
    #expect(warnings.lines.count == 2)
    #expect(warnings.lines.first == #"translation missing: "only.english" in de.json; English is shown"#)
  }

  @Test func aKeyNoCatalogHasShowsTheMissingTextNeverTheKey() {
    let warnings = Warnings()
    let german = translations(warnings).translator(for: .german)
    #expect(german.text("nowhere.at.all") == Translator.missingText)
    #expect(german.plural("nowhere", count: 2) == Translator.missingText)
    #expect(german.text("nowhere.at.all") == Translator.missingText)
    #expect(warnings.lines.count == 2)
    #expect(warnings.lines.allSatisfy { $0.contains("en.json") })
  }

  @Test func pluralsPickTheFormAndFormatTheCountInTheLocale() {
    let german = translations(Warnings()).translator(for: .german)
    #expect(german.plural("habits", count: 1) == "1 Gewohnheit")
    #expect(german.plural("habits", count: 12_345) == "12.345 Gewohnheiten")
    #expect(german.plural("habits", count: 2, ["count": "zwei"]) == "zwei Gewohnheiten")
  }

  @Test func aZeroFormIsUsedForZeroWhenTheCatalogHasIt() {
    let warnings = Warnings()
    let all = translations(warnings)
    #expect(all.translator(for: .english).plural("habits", count: 0) == "No habits yet")
    #expect(all.translator(for: .english).plural("days", count: 0) == "0 days")
    // German has no `habits_zero`: its own `other` form, not English's zero form.
    #expect(all.translator(for: .german).plural("habits", count: 0) == "0 Gewohnheiten")
    #expect(warnings.lines.isEmpty)
  }

  @Test func aMissingPluralFormFallsBackToEnglishsFormForTheCount() {
    let warnings = Warnings()
    let german = translations(warnings).translator(for: .german)
    #expect(german.plural("days", count: 1) == "1 day")
    #expect(german.plural("days", count: 3) == "3 days")
    #expect(warnings.lines == [
      #"translation missing: "days_one" in de.json; English is shown"#,
      #"translation missing: "days_other" in de.json; English is shown"#,
    ])
  }

  @Test func aPolishPluralUsesThePolishCategory() {
    let polish = Catalog(strings: [
      "habits_one": "{{count}} nawyk", "habits_few": "{{count}} nawyki", "habits_many": "{{count}} nawyków",
      "habits_other": "{{count}} nawyku",
    ])
    let translator = Translations(catalogs: [.english: english, .polish: polish], missing: .silent)
      .translator(for: .polish)
    #expect([1, 2, 5, 22].map { translator.plural("habits", count: $0) }
      == ["1 nawyk", "2 nawyki", "5 nawyków", "22 nawyki"])
  }

  /// A page's cards say a sentence looked up once; what they say is what a lookup per card
  /// said, zero forms, fallbacks and their one warning included.
  @Test func aSentenceLookedUpOnceSaysWhatEachLookupSays() {
    let warnings = Warnings()
    let all = translations(warnings)
    for language in [Language.english, .german, .polish] {
      let t = all.translator(for: language)
      for key in ["habits", "days", "nowhere"] {
        let sentence = t.pluralSentence(key)
        for count in [0, 1, 2, 5, 22, 1_000] {
          #expect(sentence(count: count) == t.plural(key, count: count))
          #expect(sentence(count: count, ["count": "n"]) == t.plural(key, count: count, ["count": "n"]))
        }
      }
      #expect(t.sentence("greeting")(["name": "Jo"]) == t.text("greeting", ["name": "Jo"]))
      #expect(t.sentence("nowhere.at.all")([:]) == Translator.missingText)
    }
    #expect(all.translator(for: .german).pluralSentence("days")(count: 3) == "3 days")
    #expect(Set(warnings.lines).count == warnings.lines.count)
  }
}
