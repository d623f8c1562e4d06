/// A key's text looked up once and filled in many times: what each card of a page says with
/// its own figures, so that twenty cards ask the catalog once (``Translator/sentence(_:)``).
public struct Sentence: Sendable {
  let template: Template

  /// The text with its `{{name}}` placeholders filled from `values` (as plain text).
  public func callAsFunction(_ values: KeyValuePairs<String, String>) -> String {
    template.filled { name in values.first { $0.key == name }?.value }
  }
}

/// A key's plural forms in one language, looked up once and picked for each count as
/// ``Translator/plural(_:count:_:)`` picks them; a form this language lacks is left to that,
/// which falls back to English and reports the gap.
public struct PluralSentence: Sendable {
  let key: String
  let translator: Translator
  let zero: Template?
  let forms: [PluralCategory: Template]

  /// The form `count` takes, with `{{count}}` in the locale's digits unless `values` sets it.
  public func callAsFunction(count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
    let zero = count == 0 ? self.zero : nil
    guard let form = zero ?? forms[translator.rules.category(for: count)] else {
      let named = Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
      return translator.plural(key, count: count, named)
    }
    return form.filled { name in
      values.first { $0.key == name }?.value ?? (name == "count" ? translator.number(count) : nil)
    }
  }
}
