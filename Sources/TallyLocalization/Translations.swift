import Foundation

/// Every language's catalog and plural rules, read once at start-up; hands out a
/// ``Translator`` per request. English is the source and every other language's fallback.
public struct Translations: Sendable {
  public let catalogs: [Language: Catalog]
  public let english: Catalog
  private let rules: [Language: PluralRules]
  private let numbers: [Language: NumberNames]
  private let pseudo: Catalog
  private let missing: MissingTranslations

  /// `catalogs` must hold English; a language without a catalog reads English throughout,
  /// each string reported missing once.
  public init(catalogs: [Language: Catalog], missing: MissingTranslations) {
    self.catalogs = catalogs
    self.english = catalogs[.english] ?? Catalog(templates: [:])
    self.pseudo = PseudoLocalization.catalog(from: english)
    self.rules = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, PluralRules(language: $0)) })
    self.numbers = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, NumberNames(locale: $0.locale)) })
    self.missing = missing
  }

  /// Reads `<code>.json` for each of the sixteen languages from `directory`; a missing or
  /// refused file is an error naming it, so a broken build does not start.
  public static func load(
    from directory: URL, limits: CatalogLimits = .standard, missing: MissingTranslations
  ) throws(CatalogError) -> Translations {
    var catalogs: [Language: Catalog] = [:]
    for language in Language.allCases {
      let url = directory.appendingPathComponent("\(language.code).json")
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw CatalogError(file: url.lastPathComponent, problem: .missingFile)
      }
      catalogs[language] = try Catalog(contentsOf: url, limits: limits)
    }
    return Translations(catalogs: catalogs, missing: missing)
  }

  public func rules(for language: Language) -> PluralRules { rules[language]! }

  public func translator(for language: Language) -> Translator {
    Translator(
      code: language.code, locale: language.locale, catalog: catalogs[language] ?? Catalog(templates: [:]),
      rules: rules(for: language), english: english, englishRules: rules(for: .english), missing: missing,
      numbers: numbers[language])
  }

  /// The pseudo-locale `qps` made from English (``PseudoLocalization``), for the test that
  /// finds text a page shows without a key. Not one of the ``Language``s a person can pick.
  public func pseudoTranslator() -> Translator {
    Translator(
      code: PseudoLocalization.code, locale: Language.english.locale,
      catalog: pseudo, rules: rules(for: .english),
      english: english, englishRules: rules(for: .english), missing: missing, numbers: numbers[.english])
  }
}
