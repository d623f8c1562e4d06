import Foundation
import Mustache
import Synchronization
import TallyHTTP
import TallyLocalization

/// The web pages' Mustache templates, read from `Resources/templates` once at start and named
/// by their path without the extension (`today`, `partials/date-circle`). A template's fixed
/// words, `{{t.key}}`, are written in once per language, when a page first speaks it: drawing a
/// page looks up none of them. Parsing a language's templates takes about 30 ms, so the
/// languages nobody reads are never parsed.
final class Templates: Sendable {
  private let sources: [(name: String, pieces: [WordedPiece])]
  /// Keyed by the translator's code (`de`, `qps`).
  private let libraries = Mutex<[String: MustacheLibrary]>([:])

  /// Read on first use, English parsed then; a template that does not parse is a bug a test
  /// catches, so it stops the server with the file's name rather than serving half a page.
  static let shared: Templates = {
    do {
      let templates = try Templates(folder: resourceFolder())
      _ = try templates.library(for: PageSpeech.english.translator)
      return templates
    } catch {
      preconditionFailure("the page templates are broken: \(error)")
    }
  }()

  init(folder: URL) throws {
    MustacheContentTypes.register(EscapedHTML(), named: EscapedHTML.name)
    var sources: [(name: String, pieces: [WordedPiece])] = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "mustache" else { continue }
      let name = String(file.deletingPathExtension().path.dropFirst(folder.path.count + 1))
      sources.append((name, Self.pieces(of: try String(contentsOf: file, encoding: .utf8))))
    }
    self.sources = sources
  }

  /// The templates in `translator`'s language, parsed the first time it is asked for.
  private func library(for translator: Translator) throws -> MustacheLibrary {
    if let made = libraries.withLock({ $0[translator.code] }) { return made }
    var library = MustacheLibrary()
    for source in sources {
      try library.register(EscapedHTML.pragma + Self.worded(source.pieces, translator), named: source.name)
    }
    libraries.withLock { $0[translator.code] = library }
    return library
  }

  static func resourceFolder() throws -> URL {
    guard
      let folder = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources")
    else { throw CocoaError(.fileNoSuchFile) }
    return folder
  }

  /// A template's text cut at its `{{t.key}}`s, once for every language.
  enum WordedPiece {
    case text(Substring)
    case word(String)
  }

  static func pieces(of text: String) -> [WordedPiece] {
    var pieces: [WordedPiece] = []
    var rest = text[...]
    while let open = rest.range(of: "{{t."), let close = rest[open.upperBound...].range(of: "}}") {
      pieces.append(.text(rest[..<open.lowerBound]))
      pieces.append(.word(String(rest[open.upperBound..<close.lowerBound])))
      rest = rest[close.upperBound...]
    }
    return pieces + [.text(rest)]
  }

  /// The template with each `{{t.key}}` replaced by the key's text in `translator`'s language,
  /// escaped as a `{{value}}` is.
  static func worded(_ pieces: [WordedPiece], _ translator: Translator) -> String {
    var text = ""
    for piece in pieces {
      switch piece {
      case .text(let literal): text += literal
      // A brace is written as a reference so that no word can open a Mustache tag.
      case .word(let key): text += HTMLText.escaped(translator.text(key)).replacing("{", with: "&#123;")
      }
    }
    return text
  }

  /// The template's text for `context` in `words`' language; every `{{value}}` is escaped for
  /// HTML.
  func render(_ context: Any, _ name: String, words: Translator = PageSpeech.english.translator) -> String {
    do {
      guard let html = try library(for: words).render(context, withTemplate: name) else {
        preconditionFailure("no page template named \(name)")
      }
      return html
    } catch {
      preconditionFailure("the page templates in \(words.code) are broken: \(error)")
    }
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
