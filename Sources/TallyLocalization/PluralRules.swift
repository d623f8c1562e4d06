import Foundation
import Synchronization
import _FoundationICU

/// A CLDR plural category: the suffix of an i18next v4 plural key (`habits_few`).
public enum PluralCategory: String, CaseIterable, Sendable, Comparable {
  case zero, one, two, few, many, other

  /// Splits `base_category` into its base and category; nil for a key that is not a plural form.
  public static func split(_ key: String) -> (base: String, category: PluralCategory)? {
    guard let underscore = key.lastIndex(of: "_"), underscore != key.startIndex,
      let category = PluralCategory(rawValue: String(key[key.index(after: underscore)...]))
    else { return nil }
    return (String(key[..<underscore]), category)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// A language's CLDR plural rules, from ICU: the copy inside the Swift toolchain that
/// Foundation formats with (`_FoundationICU`), so the server needs no system ICU. Its
/// functions carry a `swift_` prefix (swift-foundation-icu renames them to avoid clashing
/// with a system ICU in the same process).
public final class PluralRules: Sendable {
  /// The categories this language's numbers fall into; always includes `other`.
  public let categories: Set<PluralCategory>
  public let localeIdentifier: String

  // ICU's rules object is only read after opening, but the lock makes that safe by
  // construction instead of by ICU's documentation of its const methods. The categories of
  // the counts pages name most are kept: asking ICU costs a page more than its sentences.
  private let rules: Mutex<(icu: OpaquePointer, known: [PluralCategory?])>

  /// Opens the rules for a BCP 47 identifier (`ar`, `pt-BR`, `zh-Hans`).
  public init(localeIdentifier: String) throws(PluralRulesUnavailable) {
    var status = U_ZERO_ERROR
    guard let rules = swift_uplrules_open(localeIdentifier, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
      throw PluralRulesUnavailable(localeIdentifier: localeIdentifier, icuStatus: Int(status.rawValue))
    }
    self.localeIdentifier = localeIdentifier
    self.categories = Self.keywords(of: rules)
    self.rules = Mutex((rules, Array(repeating: nil, count: 1024)))
  }

  public convenience init(language: Language) {
    // The sixteen are in every ICU; failing here would mean a broken toolchain, not bad input.
    do { try self.init(localeIdentifier: language.code) } catch { fatalError("\(error)") }
  }

  deinit { rules.withLock { swift_uplrules_close($0.icu) } }

  /// The category `count` takes in this language: `3` in Arabic is `few`, `21` in Russian `one`.
  public func category(for count: Int) -> PluralCategory {
    rules.withLock { rules in
      let kept = rules.known.indices.contains(count)
      if kept, let category = rules.known[count] { return category }
      let category = Self.select(count, in: rules.icu)
      if kept { rules.known[count] = category }
      return category
    }
  }

  private static func select(_ count: Int, in rules: OpaquePointer) -> PluralCategory {
    var buffer = [UChar](repeating: 0, count: 8)
    var status = U_ZERO_ERROR
    let length = swift_uplrules_select(rules, Double(count), &buffer, Int32(buffer.count), &status)
    guard status.rawValue <= U_ZERO_ERROR.rawValue else { return .other }
    return PluralCategory(rawValue: String(decoding: buffer[..<Int(length)], as: UTF16.self)) ?? .other
  }

  private static func keywords(of rules: OpaquePointer) -> Set<PluralCategory> {
    var status = U_ZERO_ERROR
    guard let keywords = swift_uplrules_getKeywords(rules, &status) else { return [.other] }
    defer { swift_uenum_close(keywords) }
    var found: Set<PluralCategory> = [.other]
    var length: Int32 = 0
    while status.rawValue <= U_ZERO_ERROR.rawValue, let keyword = swift_uenum_next(keywords, &length, &status) {
      if let category = PluralCategory(rawValue: String(cString: keyword)) { found.insert(category) }
    }
    return found
  }
}

/// ICU could not open plural rules for an identifier.
public struct PluralRulesUnavailable: Error, CustomStringConvertible {
  public let localeIdentifier: String
  public let icuStatus: Int
  public var description: String { "ICU has no plural rules for \"\(localeIdentifier)\" (status \(icuStatus))" }
}
