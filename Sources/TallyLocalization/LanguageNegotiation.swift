import Foundation

/// Picks the language for someone without a setting from their browser's `Accept-Language`
/// (RFC 9110 §12.5.4): the highest-weighted range Tally speaks, a region falling back to its
/// language (`en-GB` → `en`, `pt-PT` → `pt-BR`, `zh-CN` → `zh-Hans`), else English.
public enum LanguageNegotiation {
  /// Only the first `maxHeaderBytes` of a header and its first `maxEntries` ranges are read:
  /// a browser sends a handful, and the header comes from the client.
  public static let maxHeaderBytes = 4096
  public static let maxEntries = 32

  public static func language(forAcceptLanguage header: String?) -> Language {
    guard let header else { return .english }
    for range in preferred(header) {
      if range.tag == "*" { return .english }
      if let language = supported(range.tag) { return language }
    }
    return .english
  }

  /// The locale (`de_DE`, `en_GB`) a new account starts with: the highest-weighted range that
  /// names one Foundation knows, a bare language taking its likeliest region (`de` → `de_DE`);
  /// nil when no range does.
  public static func locale(forAcceptLanguage header: String?) -> String? {
    guard let header else { return nil }
    return preferred(header).lazy.filter { $0.tag != "*" }.compactMap { knownLocale($0.tag) }.first
  }

  /// The ranges a header accepts (weight above 0), most wanted first; among equal weights the
  /// header's own order decides.
  private static func preferred(_ header: String) -> [WeightedRange] {
    weightedRanges(in: header).enumerated()
      .sorted { ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset) }
      .map(\.element).filter { $0.weight > 0 }
  }

  private static let knownLocales = Set(Locale.availableIdentifiers)

  private static func knownLocale(_ tag: String) -> String? {
    let language = Locale.Language(identifier: tag)
    guard let code = language.languageCode?.identifier else { return nil }
    let likely = Locale.Language(identifier: code).maximalIdentifier.split(separator: "-")
    let likelyRegion = likely.last { $0.count == 2 && $0.uppercased() == $0 }.map(String.init)
    guard let region = language.region?.identifier ?? likelyRegion else { return nil }
    // Chinese locales name their script: zh_Hans_CN.
    let likelyScript = likely.dropFirst().first { $0.count == 4 }.map(String.init)
    let script = language.script?.identifier ?? likelyScript
    let identifiers = ["\(code)_\(region)"] + (script.map { ["\(code)_\($0)_\(region)"] } ?? [])
    return identifiers.first(where: knownLocales.contains)
  }

  /// The language a single tag reaches, or nil: `zh-TW` and `zh-Hant` (Traditional Chinese)
  /// reach none, as Tally has no Traditional Chinese file.
  public static func supported(_ tag: String) -> Language? {
    let subtags = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    guard let primary = subtags.first, !primary.isEmpty else { return nil }
    switch primary {
    case "zh": return simplifiedChinese(subtags.dropFirst())
    case "pt": return .brazilianPortuguese
    default: return Language.allCases.first { $0.code == primary }
    }
  }

  private static func simplifiedChinese(_ rest: ArraySlice<String>) -> Language? {
    let script = rest.first { $0.count == 4 }
    let region = rest.first { $0.count == 2 || $0.count == 3 }
    if let script { return script == "hans" ? .simplifiedChinese : nil }
    if let region, ["tw", "hk", "mo"].contains(region) { return nil }
    return .simplifiedChinese
  }

  struct WeightedRange {
    let tag: String
    let weight: Int  // thousandths, so 0.8 and 0.800 compare equal
  }

  static func weightedRanges(in header: String) -> [WeightedRange] {
    // A character cut in two at the limit decodes as U+FFFD, which no tag accepts.
    var bounded = String(decoding: header.utf8.prefix(maxHeaderBytes), as: UTF8.self)
    let truncated = header.utf8.count > maxHeaderBytes
    if truncated, let lastComma = bounded.lastIndex(of: ",") {
      bounded = String(bounded[..<lastComma])  // the range cut in half is not read
    } else if truncated {
      return []
    }
    return bounded.split(separator: ",", maxSplits: maxEntries, omittingEmptySubsequences: true)
      .prefix(maxEntries)
      .compactMap(parse)
  }

  private static func parse(_ entry: Substring) -> WeightedRange? {
    let fields = entry.split(separator: ";", omittingEmptySubsequences: false)
    let tag = fields[0].trimmingSpaces
    guard !tag.isEmpty, tag.count <= 64, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "*") })
    else { return nil }
    var weight = 1000
    for parameter in fields.dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1).map(\.trimmingSpaces)
      guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
      guard let parsed = qValue(pair[1]) else { return nil }
      weight = parsed
    }
    return WeightedRange(tag: tag, weight: weight)
  }

  /// `0`, `0.5`, `1.000`: RFC 9110's qvalue, as thousandths; anything else is nil.
  private static func qValue(_ text: String) -> Int? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    let thousandths = Int(whole)! * 1000 + Int(fraction + String(repeating: "0", count: 3 - fraction.count))!
    return thousandths <= 1000 ? thousandths : nil
  }
}

extension Substring {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
