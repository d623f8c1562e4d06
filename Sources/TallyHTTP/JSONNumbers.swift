import Foundation

/// Every number in a JSON text with where it stands (`episodes[0].season`), read from the
/// bytes themselves: Foundation's parsers turn `1e-400` and `-0.0` into 0 without a word,
/// refuse `1e400` as "not JSON", and its decoder reports `2.5` for a whole number as "not
/// valid JSON" at no field at all. These let a request be told which field is wrong and why.
package enum JSONNumbers {
  package struct Number {
    package var path: String
    package var text: String
  }

  /// What is wrong with a number no field can take, as the end of a sentence; `nil` if fine.
  package static func problem(_ text: String) -> String? {
    guard let value = Double(text) else { return "is not a number Tally can read" }
    let digits = text.prefix { !"eE".contains($0) }
    let allZero = digits.allSatisfy { "-+.0".contains($0) }
    if !value.isFinite { return "is too large a number" }
    if allZero {
      return text.hasPrefix("-") ? "is negative zero; write 0" : nil
    }
    if value == 0 || value.isSubnormal { return "is too small a number to keep exactly; write 0 or a larger one" }
    return nil
  }

  /// Whether `text` is a whole number (`2`, `2.0`, `1e2`).
  package static func isWhole(_ text: String) -> Bool {
    guard let value = Double(text) else { return false }
    return value.rounded() == value
  }

  /// Whether the whole number `text` fits a Swift `Int`, as the decoder needs. Compared as a
  /// decimal, digit for digit: a `Double` reads -9223372036854775809 as the smallest `Int`.
  package static func fitsInteger(_ text: String) -> Bool {
    if Int(text) != nil { return true }
    guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return false }
    return value >= Decimal(Int.min) && value <= Decimal(Int.max)
  }

  /// The numbers of `data` in document order. A text that is not JSON gives what was read
  /// up to where it broke.
  package static func all(in data: Data) -> [Number] {
    var scanner = Walker(bytes: [UInt8](data))
    scanner.run()
    return scanner.numbers
  }

  private struct Walker {
    enum Frame {
      case object(key: String?, expectingKey: Bool)
      case array(index: Int)
    }

    let bytes: [UInt8]
    var index = 0
    var stack: [Frame] = []
    var numbers: [Number] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    var path: String {
      var text = ""
      for frame in stack {
        switch frame {
        case .object(let key?, false): text += (text.isEmpty ? "" : ".") + key
        case .array(let index): text += "[\(index)]"
        default: break
        }
      }
      return text.isEmpty ? "the top level" : text
    }

    mutating func run() {
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "{"):
          stack.append(.object(key: nil, expectingKey: true))
          index += 1
        case UInt8(ascii: "["):
          stack.append(.array(index: 0))
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          _ = stack.popLast()
          index += 1
        case UInt8(ascii: ","):
          switch stack.last {
          case .object(let key, _)?: stack[stack.count - 1] = .object(key: key, expectingKey: true)
          case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
          case nil: break
          }
          index += 1
        case UInt8(ascii: "\""):
          guard let text = string() else { return }
          if case .object(_, true)? = stack.last { stack[stack.count - 1] = .object(key: text, expectingKey: false) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          let start = index
          while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
          numbers.append(Number(path: path, text: String(decoding: bytes[start..<index], as: UTF8.self)))
        default:
          index += 1
        }
      }
    }

    /// The string starting at `index` (a quote), unescaped; `nil` when the text ends inside it.
    mutating func string() -> String? {
      let start = index
      index += 1
      var escaped = false
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          let raw = Data(bytes[start..<index])
          return (try? JSONSerialization.jsonObject(with: raw, options: .fragmentsAllowed)) as? String
            ?? String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
        }
      }
      return nil
    }
  }
}
