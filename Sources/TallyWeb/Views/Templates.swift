import Foundation
import Mustache
import TallyHTTP
import TallyLocalization

/// The web pages' Mustache templates, read from `Resources/templates` once at start and named
/// by their path without the extension (`today`, `partials/date-circle`). A template's fixed
/// words, `{{t.key}}`, are written in when it is read, once per language: drawing a page looks
/// up none of them.
struct Templates: Sendable {
  /// Keyed by the translator's code (`de`, `qps`).
  let libraries: [String: MustacheLibrary]

  /// Parsed on first use; a template that does not parse is a bug a test catches, so it stops
  /// the server with the file's name rather than serving half a page.
  static let shared: Templates = {
    do {
      let languages = PageLanguages.shared
      return try Templates(
        folder: resourceFolder(),
        translators: Language.allCases.map(languages.translator(for:)) + [languages.pseudoTranslator()])
    } catch {
      preconditionFailure("the page templates are broken: \(error)")
    }
  }()

  init(folder: URL, translators: [Translator]) throws {
    MustacheContentTypes.register(EscapedHTML(), named: EscapedHTML.name)
    var sources: [(name: String, text: String)] = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "mustache" else { continue }
      let name = String(file.deletingPathExtension().path.dropFirst(folder.path.count + 1))
      sources.append((name, try String(contentsOf: file, encoding: .utf8)))
    }
    var libraries: [String: MustacheLibrary] = [:]
    for translator in translators {
      var library = MustacheLibrary()
      for source in sources {
        try library.register(EscapedHTML.pragma + Self.worded(source.text, translator), named: source.name)
      }
      libraries[translator.code] = library
    }
    self.libraries = libraries
  }

  static func resourceFolder() throws -> URL {
    guard
      let folder = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources")
    else { throw CocoaError(.fileNoSuchFile) }
    return folder
  }

  /// `text` with each `{{t.key}}` replaced by the key's text in `translator`'s language,
  /// escaped as a `{{value}}` is.
  static func worded(_ text: String, _ translator: Translator) -> String {
    text.replacing(/\{\{t\.([A-Za-z0-9_.]+)\}\}/) { HTMLText.escaped(translator.text(String($0.1))) }
  }

  /// The template's text for `context` in `words`' language; every `{{value}}` is escaped for
  /// HTML.
  func render(_ context: Any, _ name: String, words: Translator = PageSpeech.english.translator) -> String {
    guard let library = libraries[words.code], let html = library.render(context, withTemplate: name) else {
      preconditionFailure("no page template named \(name) in \(words.code)")
    }
    return html
  }
}

/// How every template escapes a `{{value}}`: byte by byte (``HTMLText``), set by a pragma put
/// before each file's text, partials included (Mustache starts a partial over in its own
/// escaping). Mustache's own escaping goes by `Character`, so a quote followed by a combining
/// mark is one character that is not a quote, and it leaves that quote as it is, ending the
/// attribute it stands in; it is also several times slower.
struct EscapedHTML: MustacheContentType {
  static let name = "TALLY_HTML"
  static let pragma = "{{% CONTENT_TYPE: \(name)}}"

  func escapeText(_ text: String) -> String { HTMLText.escaped(text) }
}
