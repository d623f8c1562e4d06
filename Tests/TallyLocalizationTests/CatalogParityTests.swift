import Testing

@testable import TallyLocalization

@Suite struct CatalogParityTests {
  let english = Catalog(strings: [
    "save": "Save", "greeting": "Hello {{name}}",
    "habits_one": "One habit", "habits_other": "{{count}} habits",
    "streak_zero": "No streak", "streak_one": "{{count}} day", "streak_other": "{{count}} days",
  ])

  func problems(_ strings: [String: String], _ language: Language) -> [CatalogParity.Problem] {
    CatalogParity.problems(in: Catalog(strings: strings), rules: PluralRules(language: language), english: english)
  }

  let completePolish = [
    "save": "Zapisz", "greeting": "Cześć {{name}}",
    "habits_one": "Jeden nawyk", "habits_few": "{{count}} nawyki", "habits_many": "{{count}} nawyków",
    "habits_other": "{{count}} nawyku",
    "streak_zero": "Brak serii", "streak_one": "{{count}} dzień", "streak_few": "{{count}} dni",
    "streak_many": "{{count}} dni", "streak_other": "{{count}} dnia",
  ]

  @Test func aCompleteCatalogHasNoProblems() {
    #expect(problems(completePolish, .polish).isEmpty)
    #expect(problems(["save": "保存", "greeting": "{{name}}さん", "habits_other": "{{count}}件",
                      "streak_zero": "なし", "streak_other": "{{count}}日"], .japanese).isEmpty)
  }

  @Test func findsAMissingAndAnExtraKey() {
    var strings = completePolish
    strings["save"] = nil
    strings["sav"] = "Zapisz"
    #expect(problems(strings, .polish) == [.missingKey("save"), .extraKey("sav")])
  }

  @Test func findsPlaceholdersThatDiffer() {
    var strings = completePolish
    strings["greeting"] = "Cześć {{imie}}"
    strings["habits_many"] = "{{count}} nawyków {{extra}}"
    #expect(problems(strings, .polish) == [
      .placeholdersDiffer(key: "greeting", english: ["name"], found: ["imie"]),
      .placeholdersDiffer(key: "habits", english: ["count"], found: ["count", "extra"]),
    ])
  }

  @Test func findsAPluralFormTheLanguageNeedsAndLacks() {
    var strings = completePolish
    strings["habits_few"] = nil
    strings["streak_zero"] = nil
    #expect(problems(strings, .polish) == [
      .missingPluralForm(base: "habits", category: .few),
      .missingPluralForm(base: "streak", category: .zero),
    ])
    // Arabic needs all six forms; English's two are not enough.
    let arabic = problems(["save": "حفظ", "greeting": "مرحبا {{name}}", "habits_one": "عادة", "habits_other": "{{count}} عادة",
                           "streak_zero": "لا", "streak_other": "{{count}}"], .arabic)
    #expect(arabic.filter { if case .missingPluralForm(base: "habits", _) = $0 { true } else { false } }.count == 4)
  }

  @Test func findsPluralFormsEnglishOrTheLanguageHasNoUseFor() {
    var strings = completePolish
    strings["habits_two"] = "{{count}} nawyki"
    strings["save_one"] = "Zapisz jeden"
    #expect(problems(strings, .polish) == [
      .unusedPluralForm(base: "habits", category: .two),
      .pluralNotInEnglish("save_one"),
    ])
  }

  @Test func everyProblemSaysWhatIsWrong() {
    #expect(CatalogParity.Problem.missingPluralForm(base: "habits", category: .few).description
      == #""habits" needs its few form "habits_few""#)
  }
}
