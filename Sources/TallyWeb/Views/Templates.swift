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
    var library = MustacheLibrary()
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "mustache" else { continue }
      let name = String(file.deletingPathExtension().path.dropFirst(folder.path.count + 1))
      try library.register(try String(contentsOf: file, encoding: .utf8), named: name)
    }
    self.library = library
  }

  static func resourceFolder() throws -> URL {
    guard
      let folder = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources")
    else { throw CocoaError(.fileNoSuchFile) }
    return folder
  }

  /// The template's text for `context`; Mustache escapes every `{{value}}` for HTML.
  func render(_ context: Any, _ name: String) -> String {
    guard let html = library.render(context, withTemplate: name) else {
      preconditionFailure("no page template named \(name)")
    }
    return html
  }
}
