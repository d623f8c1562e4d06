/// What is wrong with a language's catalog next to English's: the check a test runs over
/// every shipped file, so a translator's slip fails the build instead of showing English.
public enum CatalogParity {
  public enum Problem: Equatable, Sendable, CustomStringConvertible {
    /// English has the key; the language does not.
    case missingKey(String)
    /// The language has a key English does not (a typo, or a string since removed).
    case extraKey(String)
    /// A string's `{{names}}` differ from English's (for plurals: over all forms together).
    case placeholdersDiffer(key: String, english: Set<String>, found: Set<String>)
    /// The language's numbers take this category (per ICU) and the plural lacks its form.
    case missingPluralForm(base: String, category: PluralCategory)
    /// A form the language's numbers never take (`_two` in Polish): dead text.
    case unusedPluralForm(base: String, category: PluralCategory)
    /// A plural form of a key English has no plural for.
    case pluralNotInEnglish(String)

    public var description: String {
      switch self {
      case .missingKey(let key): "missing key \"\(key)\""
      case .extraKey(let key): "key \"\(key)\" is not in en.json"
      case .placeholdersDiffer(let key, let english, let found):
        "\"\(key)\" has placeholders \(found.sorted()), English has \(english.sorted())"
      case .missingPluralForm(let base, let category): "\"\(base)\" needs its \(category) form \"\(base)_\(category)\""
      case .unusedPluralForm(let base, let category): "\"\(base)_\(category)\": this language never uses \(category)"
      case .pluralNotInEnglish(let key): "\"\(key)\" is a plural form of a key English has no plural for"
      }
    }
  }

  /// Every problem of `catalog` (a language whose numbers take `rules`' categories) against
  /// `english`, in key order. A plural needs each of the language's categories, and `_zero`
  /// too when English has one (i18next's special form for a count of 0).
  public static func problems(in catalog: Catalog, rules: PluralRules, english: Catalog) -> [Problem] {
    let englishPlurals = pluralForms(in: english)
    let plurals = pluralForms(in: catalog)
    var problems: [Problem] = []

    for key in english.keys.sorted() where PluralCategory.split(key) == nil {
      guard let template = catalog[key] else {
        problems.append(.missingKey(key))
        continue
      }
      let expected = english[key]!.placeholders
      if template.placeholders != expected {
        problems.append(.placeholdersDiffer(key: key, english: expected, found: template.placeholders))
      }
    }
    for base in englishPlurals.keys.sorted() {
      let englishForms = englishPlurals[base]!
      var needed = rules.categories
      if englishForms[.zero] != nil { needed.insert(.zero) }
      let forms = plurals[base] ?? [:]
      for category in needed.sorted() where forms[category] == nil {
        problems.append(.missingPluralForm(base: base, category: category))
      }
      for category in forms.keys.sorted() where !needed.contains(category) {
        problems.append(.unusedPluralForm(base: base, category: category))
      }
      let expected = englishForms.values.reduce(into: Set<String>()) { $0.formUnion($1.placeholders) }
      let found = forms.values.reduce(into: Set<String>()) { $0.formUnion($1.placeholders) }
      if !forms.isEmpty, found != expected {
        problems.append(.placeholdersDiffer(key: base, english: expected, found: found))
      }
    }
    for key in catalog.keys.sorted() where english[key] == nil {
      if let (base, _) = PluralCategory.split(key) {
        if englishPlurals[base] == nil { problems.append(.pluralNotInEnglish(key)) }
      } else {
        problems.append(.extraKey(key))
      }
    }
    return problems
  }

  /// Plural keys grouped by base: `{"habits": [.one: …, .other: …]}`. Any key ending in a
  /// category's suffix is a plural form: the six suffixes are reserved (docs/translating.md).
  static func pluralForms(in catalog: Catalog) -> [String: [PluralCategory: Template]] {
    var forms: [String: [PluralCategory: Template]] = [:]
    for (key, template) in catalog.templates {
      guard let (base, category) = PluralCategory.split(key) else { continue }
      forms[base, default: [:]][category] = template
    }
    return forms
  }
}
