import Foundation
import Mustache
import TallyHTTP

/// The web pages' Mustache templates, read from `Resources/templates` once at start and named
/// by their path without the extension (`today`, `partials/date-circle`).
struct Templates: Sendable {
  let library: MustacheLibrary

  /// Parsed on first use; a template that does not parse is a bug a test catches, so it stops
  /// the server with the file's name rather than serving half a page.
  static let shared: Templates = {
    do {
      return try Templates(folder: resourceFolder())
    } catch {
      preconditionFailure("the page templates are broken: \(error)")
    }
  }()

  init(folder: URL) throws {
    MustacheContentTypes.register(EscapedHTML(), named: EscapedHTML.name)
    var library = MustacheLibrary()
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "mustache" else { continue }
      let name = String(file.deletingPathExtension().path.dropFirst(folder.path.count + 1))
      let text = try String(contentsOf: file, encoding: .utf8)
      try library.register(EscapedHTML.pragma + text, named: name)
    }
    self.library = library
  }

  static func resourceFolder() throws -> URL {
    guard
      let folder = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources")
    else { throw CocoaError(.fileNoSuchFile) }
    return folder
  }

  /// The template's text for `context`; every `{{value}}` is escaped for HTML.
  func render(_ context: Any, _ name: String) -> String {
    guard let html = library.render(context, withTemplate: name) else {
      preconditionFailure("no page template named \(name)")
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
