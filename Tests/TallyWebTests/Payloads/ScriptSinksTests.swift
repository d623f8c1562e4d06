import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyServerTesting
import Testing

/// Issue 60: the web app's scripts (online and offline) put text into the page only as text
/// (`textContent`, attributes set through the DOM), never as HTML. The DOM parser that reads
/// Tally's own answers (a page fetched after a form, drawn and escaped by the server) is the
/// one way markup enters, and it never holds text a script made.
@Suite struct ScriptSinksTests {
  static let htmlSinks = [
    "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "srcdoc", "createContextualFragment",
    "setHTMLUnsafe", "eval(", "new Function",
  ]

  @Test func noScriptInsertsTextAsHTML() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let page = try await client.page("/today", headers: owner)
      let pattern = try NSRegularExpression(pattern: #"src="(/assets/[^"]+\.js[^"]*)""#)
      let scripts = pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)).compactMap {
        Range($0.range(at: 1), in: page).map { String(page[$0]) }
      }
      #expect(scripts.count >= 4, "\(scripts)")
      for path in scripts + ["/sw.js"] {
        let script = try await client.send(.get, path).text
        #expect(!script.isEmpty, "\(path)")
        for sink in Self.htmlSinks {
          #expect(!script.contains(sink), "\(path) uses \(sink)")
        }
      }
    }
  }
}
