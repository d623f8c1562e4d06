import Foundation
import TallyCore
import Testing

/// One rule for "the same name", for habits and shows alike (issue 16, point 17).
@Suite struct NameKeyTests {
  @Test func namesCompareIgnoringCaseSpacingAndUnicodeForm() {
    #expect(NameKey.comparisonKey("  Read ") == "read")
    #expect(NameKey.same("Read", "READ"))
    #expect(NameKey.same("read", " Read\n"))
    // "é" precomposed (U+00E9) and decomposed (e + U+0301) are one name.
    #expect(NameKey.same("Caf\u{E9}", "CAFE\u{301}"))
    #expect(!NameKey.same("Read", "Reads"))
    #expect(!NameKey.same("Read", "Re ad"))
  }
}
