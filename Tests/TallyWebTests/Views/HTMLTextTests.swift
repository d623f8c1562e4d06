import PropertyBased
import Testing

@testable import TallyWeb

@Suite struct HTMLTextTests {
  /// The obvious escaping, character by character, against the byte-by-byte one the pages use,
  /// on texts mixing the five special characters with accents, combining marks, emoji and NUL.
  @Test func escapingMatchesCharacterByCharacterReplacement() async {
    let pieces = ["a", "&", "<", ">", "\"", "'", "é", "e\u{301}", "👩‍👩‍👧", "日本", " ", "\u{0}", "&amp;", ";"]
    await propertyCheck(count: 500, input: Gen.int(in: 0..<pieces.count).array(of: 0...24)) { picks in
      let text = picks.map { pieces[$0] }.joined()
      let expected = text.map { character -> String in
        switch character {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: String(character)
        }
      }.joined()
      #expect(HTMLText.escaped(text) == expected)
    }
  }
}
