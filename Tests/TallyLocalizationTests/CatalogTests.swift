import Foundation
import Testing

@testable import TallyLocalization

@Suite struct CatalogTests {
  func catalog(_ json: String, limits: CatalogLimits = .standard) throws(CatalogError) -> Catalog {
    try Catalog(data: Data(json.utf8), file: "de.json", limits: limits)
  }

  @Test func nestedObjectsBecomeDottedKeys() throws {
    let read = try catalog(#"{"habits": {"form": {"name": "Name", "save": "Sichern"}}, "title": "Tally"}"#)
    #expect(Set(read.keys) == ["habits.form.name", "habits.form.save", "title"])
    #expect(read["habits.form.name"]?.source == "Name")
  }

  @Test func placeholdersAreFilledAsPlainText() throws {
    let read = try catalog(#"{"greeting": "Hallo {{name}}, {{ count }} offen: {{name}}"}"#)
    let template = try #require(read["greeting"])
    #expect(template.placeholders == ["name", "count"])
    #expect(template.filled(with: ["name": "<b>Ana</b>", "count": "3"]) == "Hallo <b>Ana</b>, 3 offen: <b>Ana</b>")
  }

  @Test func aValueLeftOutStaysVisibleAndBracesWithoutANameAreText() {
    #expect(Template("{{who}} hat {{}} und {{ offen").filled(with: [:]) == "{{who}} hat {{}} und {{ offen")
    #expect(Template("{{}} und {{ offen").placeholders.isEmpty)
  }

  @Test func aValueThatIsNotAStringIsRefusedByItsKey() {
    #expect(throws: CatalogError(file: "de.json", problem: .notAString(key: "habits.count", found: "a number or true/false"))) {
      try catalog(#"{"habits": {"count": 3}}"#)
    }
    #expect(throws: CatalogError(file: "de.json", problem: .notAString(key: "list", found: "an array"))) {
      try catalog(#"{"list": ["a"]}"#)
    }
    #expect(throws: CatalogError(file: "de.json", problem: .notAString(key: "gone", found: "null"))) {
      try catalog(#"{"gone": null}"#)
    }
  }

  @Test func aFileOverTheSizeLimitIsRefusedBeforeItIsParsed() {
    let limits = CatalogLimits(maxBytes: 64, maxDepth: 8)
    let big = #"{"a": ""# + String(repeating: "x", count: 100) + #""}"#
    #expect(throws: CatalogError(file: "de.json", problem: .tooLarge(bytes: big.utf8.count, limit: 64))) {
      try catalog(big, limits: limits)
    }
  }

  @Test func nestingDeeperThanTheLimitIsRefusedNamingWhere() {
    let limits = CatalogLimits(maxBytes: 1000, maxDepth: 3)
    #expect(throws: Never.self) { try catalog(#"{"a": {"b": {"c": "ok"}}}"#, limits: limits) }
    #expect(throws: CatalogError(file: "de.json", problem: .tooDeep(key: "a.b.c", limit: 3))) {
      try catalog(#"{"a": {"b": {"c": {"d": "too deep"}}}}"#, limits: limits)
    }
  }

  @Test func brokenFilesAreRefusedNamingTheFile() {
    #expect(throws: CatalogError(file: "de.json", problem: .notAnObject)) { try catalog(#"["a"]"#) }
    #expect(throws: CatalogError(file: "de.json", problem: .duplicateKey("a.b"))) {
      try catalog(#"{"a.b": "one", "a": {"b": "two"}}"#)
    }
    do {
      _ = try catalog(#"{"a": "unclosed"#)
      Issue.record("a truncated file was read")
    } catch {
      guard case .notJSON = error.problem else {
        Issue.record("\(error)")
        return
      }
      #expect(error.description.hasPrefix("de.json: not JSON"))
    }
  }

  @Test func aFileOnDiskIsReadNoFurtherThanTheLimit() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-catalog-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data((#"{"a": ""# + String(repeating: "x", count: 500) + #""}"#).utf8).write(to: url)
    #expect(try Catalog(contentsOf: url)["a"]?.source.count == 500)
    #expect(throws: CatalogError(file: url.lastPathComponent, problem: .tooLarge(bytes: 101, limit: 100))) {
      try Catalog(contentsOf: url, limits: CatalogLimits(maxBytes: 100, maxDepth: 8))
    }
  }

  @Test func theErrorSaysWhichFileAndWhatIsWrong() {
    let error = CatalogError(file: "pl.json", problem: .notAString(key: "a.b", found: "an array"))
    #expect(error.description == #"pl.json: "a.b" is an array; a translation must be a string"#)
  }
}
