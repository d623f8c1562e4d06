import Foundation

/// The strings of one language for one page: a key's text in that language, else in English,
/// else ``missingText`` — never the key itself — with each miss reported once.
/// A lookup is a dictionary access and a walk over the string's pre-split parts.
public final class Translator: Sendable {
  /// What a page shows for a key no catalog has: one visible glyph, so a screenshot or a
  /// reader notices the gap, with no key name, no markup and room in any button.
  public static let missingText = "…"

  /// The code whose file the strings come from (`de`, or `qps` for the pseudo-locale).
  public let code: String
  /// Numbers inserted as `{{count}}` are formatted in this locale.
  public let locale: Locale
  let catalog: Catalog
  let rules: PluralRules
  let english: Catalog
  let englishRules: PluralRules
  let missing: MissingTranslations
  let numbers: NumberNames

  public init(
    code: String, locale: Locale, catalog: Catalog, rules: PluralRules,
    english: Catalog, englishRules: PluralRules, missing: MissingTranslations, numbers: NumberNames? = nil
  ) {
    self.code = code
    self.locale = locale
    self.catalog = catalog
    self.rules = rules
    self.english = english
    self.englishRules = englishRules
    self.missing = missing
    self.numbers = numbers ?? NumberNames(locale: locale)
  }

  /// `number` in the locale's digits and grouping.
  public func number(_ number: Int) -> String { numbers.name(number) }

  /// Whether any catalog has a text for `key` itself (not only for keys under it).
  public func hasText(_ key: String) -> Bool { catalog[key] != nil || english[key] != nil }

  /// The text for `key` with its `{{name}}` placeholders filled from `values` (as plain text).
  public func text(_ key: String, _ values: [String: String] = [:]) -> String {
    template(key).filled(with: values)
  }

  /// `key`'s text looked up once, for a page that fills it in many times (``Sentence``).
  public func sentence(_ key: String) -> Sentence { Sentence(template: template(key)) }

  /// `key`'s plural forms looked up once, for a page that picks among them many times
  /// (``PluralSentence``).
  public func pluralSentence(_ key: String) -> PluralSentence {
    var forms: [PluralCategory: Template] = [:]
    for category in rules.categories { forms[category] = catalog["\(key)_\(category.rawValue)"] }
    return PluralSentence(key: key, translator: self, zero: catalog["\(key)_zero"], forms: forms)
  }

  private func template(_ key: String) -> Template {
    if let template = catalog[key] { return template }
    if let template = english[key] {
      missing.report(language: code, key: key, fallback: .english)
      return template
    }
    missing.report(language: code, key: key, fallback: .placeholder)
    return Self.missingTemplate
  }

  private static let missingTemplate = Template(missingText)

  /// Every text under `prefix.`, keyed without it, as its file has it: this language's where it
  /// has one, else English's. What a page hands its scripts, which fill in values and pick
  /// plural forms themselves (by the same keys, with `Intl.PluralRules`).
  public func sources(under prefix: String) -> [String: String] {
    let start = prefix + "."
    var result: [String: String] = [:]
    for templates in [english.templates, catalog.templates] {
      for (key, template) in templates where key.hasPrefix(start) { result[String(key.dropFirst(start.count))] = template.source }
    }
    return result
  }

  /// The form of `key` that `count` takes in this language (`key_one`, `key_few`…), as
  /// i18next picks it: `key_zero` first when the count is 0 and the catalog has it, then the
  /// language's CLDR category. `{{count}}` is the count in the locale's digits and grouping
  /// unless `values` sets it.
  public func plural(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
    var values = values
    if values["count"] == nil { values["count"] = numbers.name(count) }
    if let template = Self.form(of: key, count: count, in: catalog, rules: rules) {
      return template.filled(with: values)
    }
    let wanted = "\(key)_\(rules.category(for: count).rawValue)"
    if let template = Self.form(of: key, count: count, in: english, rules: englishRules) {
      missing.report(language: code, key: wanted, fallback: .english)
      return template.filled(with: values)
    }
    missing.report(language: code, key: wanted, fallback: .placeholder)
    return Self.missingText
  }

  private static func form(of key: String, count: Int, in catalog: Catalog, rules: PluralRules) -> Template? {
    if count == 0, let zero = catalog["\(key)_zero"] { return zero }
    return catalog["\(key)_\(rules.category(for: count).rawValue)"]
  }
}
