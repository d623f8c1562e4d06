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

  @Test func aMissingFileIsAnErrorNamingIt() throws {
    try withLocaleFolder(leaving: .ukrainian) { folder in
      #expect(throws: CatalogError(file: "uk.json", problem: .missingFile)) {
        try Translations.load(from: folder, missing: .silent)
      }
    }
  }
}
