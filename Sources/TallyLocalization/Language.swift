import Foundation

/// A language Tally's pages speak: the sixteen of issue 56, each with a locale file
/// `<code>.json` (i18next JSON v4). The raw value is the code, the file name and the stored setting.
public enum Language: String, CaseIterable, Sendable, Hashable, Codable {
  case english = "en"
  case simplifiedChinese = "zh-Hans"
  case spanish = "es"
  case arabic = "ar"
  case brazilianPortuguese = "pt-BR"
  case indonesian = "id"
  case french = "fr"
  case japanese = "ja"
  case russian = "ru"
  case german = "de"
  case korean = "ko"
  case turkish = "tr"
  case italian = "it"
  case polish = "pl"
  case dutch = "nl"
  case ukrainian = "uk"

  /// The BCP 47 code: the file name, `<html lang>` and the stored setting.
  public var code: String { rawValue }

  /// The language's name in itself, for a picker a person who reads only that language can use.
  public var endonym: String {
    switch self {
    case .english: "English"
    case .simplifiedChinese: "简体中文"
    case .spanish: "Español"
    case .arabic: "العربية"
    case .brazilianPortuguese: "Português (Brasil)"
    case .indonesian: "Bahasa Indonesia"
    case .french: "Français"
    case .japanese: "日本語"
    case .russian: "Русский"
    case .german: "Deutsch"
    case .korean: "한국어"
    case .turkish: "Türkçe"
    case .italian: "Italiano"
    case .polish: "Polski"
    case .dutch: "Nederlands"
    case .ukrainian: "Українська"
    }
  }

  /// The way its text runs, for `<html dir>`.
  public var direction: WritingDirection { self == .arabic ? .rightToLeft : .leftToRight }

  /// The locale numbers, dates, month and weekday names are formatted in.
  public var locale: Locale { Locale(identifier: code) }

  /// Reads a stored setting: exactly one of the sixteen codes (letter case as written here).
  public init(code: String) throws(UnknownLanguage) {
    guard let language = Language(rawValue: code) else { throw UnknownLanguage(code: code) }
    self = language
  }
}

/// Left to right or right to left: the value of `<html dir>`.
public enum WritingDirection: String, Sendable {
  case leftToRight = "ltr"
  case rightToLeft = "rtl"
}

/// A language code Tally does not speak, with the codes it does (for a 422 naming the field).
public struct UnknownLanguage: Error, Equatable, CustomStringConvertible {
  /// What was given, cut to a length a message can show.
  public let code: String
  public static let acceptedCodes = Language.allCases.map(\.code)

  public init(code: String) { self.code = String(code.prefix(40)) }

  public var description: String {
    "unknown language \"\(code)\"; accepted: \(Self.acceptedCodes.joined(separator: ", "))"
  }
}
