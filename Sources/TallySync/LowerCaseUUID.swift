import Foundation

/// A UUID's lower-case text read as bytes: the form Tally writes ids and devices in.
/// `UUID(uuidString:)` goes through `sscanf` here, and a first pull reads two UUIDs a change.
enum LowerCaseUUID {
  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard bytes.count == 36 else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let valid = withUnsafeMutableBytes(of: &uuid) { value -> Bool in
      var nibbles = 0
      for (index, byte) in bytes.enumerated() {
        if index == 8 || index == 13 || index == 18 || index == 23 {
          guard byte == UInt8(ascii: "-") else { return false }
          continue
        }
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        default: return false
        }
        value[nibbles / 2] |= nibbles % 2 == 0 ? digit << 4 : digit
        nibbles += 1
      }
      return true
    }
    return valid ? UUID(uuid: uuid) : nil
  }

  static func read(_ text: some StringProtocol) -> UUID? {
    var text = String(text)
    return text.withUTF8 { read($0) }
  }
}
