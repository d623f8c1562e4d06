import Foundation
import PropertyBased
import TallyCore
import TallySync
import Testing

/// Cursors are read byte by byte on every poll; these hold that reading to the general one: the
/// text split at its colons, the ids read by `UUID(uuidString:)`.
@Suite struct SyncCursorTests {
  @Test func aCursorReadsBackAsWritten() async {
    await propertyCheck(input: Gen.int(in: 0..<18), Gen.int(in: 0..<1_000_000)) { digits, seed throws in
      var generator = Xorshift(seed: UInt64(seed) + 1)
      let position = Int64.random(in: 0...(Self.powerOfTen(digits + 1) - 1), using: &generator)
      let cursor = SyncCursor(position: position, user: generator.uuid(), server: generator.uuid())
      #expect(SyncCursor(cursor.description) == cursor)
      #expect(SyncCursor(cursor.description.uppercased()) == cursor)
      #expect(SyncCursor(cursor.description) == Self.reference(cursor.description))
    }
  }

  /// Any text changed at one byte is read as the reference reads it: the same cursor, or none.
  @Test func aChangedCursorIsReadAsTheReferenceReadsIt() async {
    let bytes = Array("0123456789:abcdef-ABCDEF -+".utf8)
    await propertyCheck(input: Gen.int(in: 0..<1_000_000), Gen.int(in: 0..<4)) { seed, change throws in
      var generator = Xorshift(seed: UInt64(seed) + 1)
      let position = Int64.random(in: 0...999_999_999_999_999_999, using: &generator)
      var text = Array(
        SyncCursor(position: position, user: generator.uuid(), server: generator.uuid()).description.utf8)
      let index = Int.random(in: 0..<text.count, using: &generator)
      switch change {
      case 0: text[index] = bytes.randomElement(using: &generator)!
      case 1: text.remove(at: index)
      case 2: text.insert(bytes.randomElement(using: &generator)!, at: index)
      default: text = Array("1234567890123456789".utf8) + text.drop { $0 != UInt8(ascii: ":") }
      }
      let changed = String(decoding: text, as: UTF8.self)
      #expect(SyncCursor(changed) == Self.reference(changed), "\(changed)")
    }
  }

  @Test(arguments: ["", ":", "1::", "-1:x:y", "12", "1:2:3:4"])
  func textThatIsNoCursorIsRefused(_ text: String) {
    #expect(SyncCursor(text) == nil)
  }

  /// The slow obvious reading.
  static func reference(_ text: String) -> SyncCursor? {
    let parts = text.components(separatedBy: ":")
    guard parts.count == 3, (1...18).contains(parts[0].count), parts[0].allSatisfy({ "0123456789".contains($0) }),
      let position = Int64(parts[0]), let user = UUID(uuidString: parts[1]), let server = UUID(uuidString: parts[2])
    else { return nil }
    return SyncCursor(position: position, user: user, server: server)
  }

  static func powerOfTen(_ exponent: Int) -> Int64 {
    (0..<exponent).reduce(1) { power, _ in power * 10 }
  }
}
