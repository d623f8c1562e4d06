import Foundation
import Hummingbird
import Logging
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The languages the pages speak (docs/translating.md): every `Resources/locales/<code>.json`,
/// read once. A page speaks the account's language, else the one chosen on this device (the
/// cookie the sign-in page sets), else the one the browser asks for.
enum PageLanguages {
  /// A file that is missing or broken is a bug a test catches: it stops the server naming
  /// the file, rather than serving keys.
  static let shared: Translations = {
    do {
      return try Translations.load(from: folder(), missing: MissingTranslations(warn: warnOnce))
    } catch {
      preconditionFailure("the page translations are broken: \(error)")
    }
  }()

  /// The cookie the sign-in page's language picker sets, for a year: a device's choice before
  /// anyone has an account to keep it in.
  static let cookie = "tally_language"

  static func folder() throws -> URL {
    guard let folder = Bundle.module.url(forResource: "locales", withExtension: nil, subdirectory: "Resources") else {
      throw CocoaError(.fileNoSuchFile)
    }
    return folder
  }

  /// The language of a page for someone not signed in.
  static func visitor(_ request: Request) -> Language {
    visitor(chosen: request.cookies[cookie]?.value, acceptLanguage: request.headers[.acceptLanguage])
  }

  private static func visitor(chosen: String?, acceptLanguage: String?) -> Language {
    if let chosen, let language = try? Language(code: chosen) { return language }
    return negotiated(acceptLanguage)
  }

  /// A browser sends the same `Accept-Language` with every request: each is negotiated once.
  private static let negotiated = DrawnOnce(capacity: 256) { (header: String?) in
    LanguageNegotiation.language(forAcceptLanguage: header)
  }

  /// The page's words and `<html lang dir>` for `language`, made once per language, the
  /// first time a page speaks it.
  static func speech(_ language: Language) -> PageSpeech { speeches(language) }

  /// The language a page speaks to `request` from `user`: their account's when they chose one,
  /// else the visitor's; the pseudo-locale whenever the cookie names it.
  static func speech(for request: Request, user: User?) -> PageSpeech {
    let chosen = request.cookies[cookie]?.value
    if chosen == PseudoLocalization.code { return .pseudo }
    if let language = user?.settings.language { return speech(language) }
    return speech(visitor(chosen: chosen, acceptLanguage: request.headers[.acceptLanguage]))
  }

  /// The cookie that keeps a device's choice: set again when an account chooses a language, so
  /// the sign-in page speaks it after signing out; gone when the account follows the browser.
  static func deviceCookie(code: String?, context: AppRequestContext) -> Cookie {
    Cookie(
      name: cookie, value: code ?? "", maxAge: code == nil ? 0 : 365 * 24 * 3600, path: "/",
      secure: context.overHTTPS, httpOnly: true, sameSite: .lax)
  }

  private static let speeches = DrawnOnce(capacity: Language.allCases.count) { (language: Language) in
    PageSpeech(translator: shared.translator(for: language), lang: language.code, dir: language.direction.rawValue)
  }

  /// A link that chooses a language for this device, named in that language.
  struct Link: Sendable {
    let code: String
    let name: String
    let href: String
    let current: Bool
  }

  /// A link per language, each back to `back` once chosen.
  static func links(current: PageSpeech, back: String) -> [Link] {
    Language.allCases.map {
      Link(
        code: $0.code, name: $0.endonym, href: "/language?code=\($0.code)&next=" + queryValue(back),
        current: $0.code == current.lang && current != .pseudo)
    }
  }

  static func queryValue(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
  }

  private static let logger = Logger(label: "tally.translations")

  private static let warnOnce: @Sendable (String) -> Void = { message in logger.warning("\(message)") }
}

/// What a page is written in: its words, and the `lang` and `dir` its `<html>` names.
struct PageSpeech: Sendable, Hashable {
  let translator: Translator
  let lang: String
  let dir: String
  /// The catalog's `script` words as JSON, for what the page's scripts write (words.js),
  /// escaped once for `<body data-words>` rather than on every page.
  let scriptWords: Markup

  init(translator: Translator, lang: String, dir: String) {
    self.translator = translator
    self.lang = lang
    self.dir = dir
    let words = (try? JSONEncoder.sorted.encode(translator.sources(under: "script"))) ?? Data("{}".utf8)
    scriptWords = "\(String(decoding: words, as: UTF8.self))"
  }

  /// For words drawn where no request is at hand.
  static let english = PageLanguages.speech(.english)

  /// The pseudo-locale, for finding text a page shows without a key (a test, a translator).
  static let pseudo = PageSpeech(
    translator: PageLanguages.shared.pseudoTranslator(), lang: "en", dir: WritingDirection.leftToRight.rawValue)
}

extension JSONEncoder {
  fileprivate static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }
}

extension PageSpeech {
  /// One per catalog: the words are the catalog's.
  static func == (lhs: PageSpeech, rhs: PageSpeech) -> Bool { lhs.translator.code == rhs.translator.code }

  func hash(into hasher: inout Hasher) { hasher.combine(translator.code) }
}
