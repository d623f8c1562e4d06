import Foundation
import Testing

@testable import TallyLocalization

@Suite struct TranslationsLoadingTests {
  /// A folder with a locale file per language (`save` in each one's own code), removed after.
  func withLocaleFolder(leaving out: Language? = nil, _ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-locales-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for language in Language.allCases where language != out {
      let json = #"{"actions": {"save": "save in \#(language.code)"}}"#
      try Data(json.utf8).write(to: folder.appendingPathComponent("\(language.code).json"))
    }
    try body(folder)
  }

  @Test func readsEveryLanguagesFileFromTheFolder() throws {
    try withLocaleFolder { folder in
      let translations = try Translations.load(from: folder, missing: .silent)
      for language in Language.allCases {
        #expect(translations.translator(for: language).text("actions.save") == "save in \(language.code)")
      }
    }
  }

  /// A language is read the first time something speaks it, once: a file broken after start,
  /// before anyone read French, turns up then, with one warning naming it, and French reads
  /// English; the languages already read, and the others, are untouched.
  @Test func eachLanguageIsReadOnFirstUseAndAFileRefusedThenReadsEnglish() throws {
    try withLocaleFolder { folder in
      let warnings = Warnings()
      let translations = try Translations.load(from: folder, missing: warnings.log)
      #expect(translations.translator(for: .german).text("actions.save") == "save in de")
      try Data(#"{"actions": {"save": ["broken"]}}"#.utf8).write(to: folder.appendingPathComponent("fr.json"))
      try Data(#"{"actions": {"save": "edited"}}"#.utf8).write(to: folder.appendingPathComponent("de.json"))
      for _ in 0..<3 {
        #expect(translations.translator(for: .french).text("actions.save") == "save in en")
        #expect(translations.translator(for: .german).text("actions.save") == "save in de")
      }
      #expect(translations.translator(for: .italian).text("actions.save") == "save in it")
      #expect(warnings.lines == [
        #"fr.json: "actions.save" is an array; a translation must be a string; its language shows English"#
      ])
    }
  }

  /// English is every language's fallback: read at once, and refused, it stops the start.
  @Test func aBrokenEnglishFileIsAnErrorNamingIt() throws {
    try withLocaleFolder { folder in
      try Data("[]".utf8).write(to: folder.appendingPathComponent("en.json"))
      #expect(throws: CatalogError(file: "en.json", problem: .notAnObject)) {
        try Translations.load(from: folder, missing: .silent)
      }
    }
  }

  @Test func aMissingFileIsAnErrorNamingIt() throws {
    try withLocaleFolder(leaving: .ukrainian) { folder in
      #expect(throws: CatalogError(file: "uk.json", problem: .missingFile)) {
        try Translations.load(from: folder, missing: .silent)
      }
    }
  }
}
