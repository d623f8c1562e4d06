import Foundation
import Synchronization

/// Every language's catalog and plural rules; hands out a ``Translator`` per language. English
/// is the source and every other language's fallback, read at once; the others are read the
/// first time something speaks them, so a household that reads one language holds two catalogs,
/// not sixteen (docs/translating.md, "How Tally reads the files").
public struct Translations: Sendable {
  public let english: Catalog
  private let others: LanguageCatalogs
  private let rules: [Language: PluralRules]
  private let numbers: [Language: NumberNames]
  private let pseudo: Catalog
  private let missing: MissingTranslations

  /// `catalogs` must hold English; a language without a catalog reads English throughout,
  /// each string reported missing once.
  public init(catalogs: [Language: Catalog], missing: MissingTranslations) {
    self.init(english: catalogs[.english] ?? Catalog(templates: [:]), missing: missing) {
      catalogs[$0] ?? Catalog(templates: [:])
    }
  }

  private init(english: Catalog, missing: MissingTranslations, read: @escaping @Sendable (Language) -> Catalog) {
    self.english = english
    self.others = LanguageCatalogs(read: read)
    self.pseudo = PseudoLocalization.catalog(from: english)
    self.rules = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, PluralRules(language: $0)) })
    self.numbers = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, NumberNames(locale: $0.locale)) })
    self.missing = missing
  }

  /// Reads `en.json` from `directory`, and checks that `<code>.json` is there for each of the
  /// other fifteen languages, which are read on first use; a missing file, or an English one
  /// refused, is an error naming it. A file refused later (edited by hand) gets one warning
  /// naming it and what is wrong, and its language reads English.
  public static func load(
    from directory: URL, limits: CatalogLimits = .standard, missing: MissingTranslations
  ) throws(CatalogError) -> Translations {
    let file = { @Sendable (language: Language) in directory.appendingPathComponent("\(language.code).json") }
    for language in Language.allCases where !FileManager.default.fileExists(atPath: file(language).path) {
      throw CatalogError(file: file(language).lastPathComponent, problem: .missingFile)
    }
    let english = try Catalog(contentsOf: file(.english), limits: limits)
    return Translations(english: english, missing: missing) { language in
      do throws(CatalogError) {
        return try Catalog(contentsOf: file(language), limits: limits)
      } catch {
        missing.refused(error)
        return english
      }
    }
  }

  /// `language`'s catalog, read now if nothing has spoken it yet.
  public func catalog(for language: Language) -> Catalog {
    language == .english ? english : others.catalog(for: language)
  }

  public func rules(for language: Language) -> PluralRules { rules[language]! }

  public func translator(for language: Language) -> Translator {
    Translator(
      code: language.code, locale: language.locale, catalog: catalog(for: language),
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

/// The catalogs other than English, each read once, the first time it is asked for.
private final class LanguageCatalogs: Sendable {
  private let read: @Sendable (Language) -> Catalog
  private let kept = Mutex<[Language: Catalog]>([:])

  init(read: @escaping @Sendable (Language) -> Catalog) { self.read = read }

  func catalog(for language: Language) -> Catalog {
    // Read under the lock: a file is read, and a refused one reported, once however many
    // pages ask for it first; the wait is a few milliseconds, once per language per process.
    kept.withLock { kept in
      if let catalog = kept[language] { return catalog }
      let catalog = read(language)
      kept[language] = catalog
      return catalog
    }
  }
}
