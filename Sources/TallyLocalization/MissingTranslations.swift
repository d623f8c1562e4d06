import Synchronization

/// Tells the log about a string a page asked for and a catalog lacks, once per language and
/// key: a hand-edited file shows English (or ``Translator/missingText``) and one warning,
/// not a warning on every page view.
public final class MissingTranslations: Sendable {
  /// Keys come from Tally's own code, so there are only so many; the cap bounds the memory
  /// anyway, and past it nothing more is reported.
  public static let capacity = 10_000

  private let reported = Mutex<Set<String>>([])
  private let warn: @Sendable (String) -> Void

  /// `warn` receives one line per (language, key), e.g. from the server's logger.
  public init(warn: @escaping @Sendable (String) -> Void) { self.warn = warn }

  /// A log that reports nowhere, for callers that do not care.
  public static var silent: MissingTranslations { MissingTranslations { _ in } }

  func report(language: String, key: String, fallback: Fallback) {
    let first = reported.withLock { reported in
      guard reported.count < Self.capacity else { return false }
      return reported.insert(language + "\u{0}" + key).inserted
    }
    guard first else { return }
    switch fallback {
    case .english: warn("translation missing: \"\(key)\" in \(language).json; English is shown")
    case .placeholder: warn("translation missing: \"\(key)\" in \(language).json and en.json; \"\(Translator.missingText)\" is shown")
    }
  }

  /// A locale file refused after start-up (edited by hand): said once, as its language is
  /// read once.
  func refused(_ error: CatalogError) {
    warn("\(error); its language shows English")
  }

  enum Fallback { case english, placeholder }
}
