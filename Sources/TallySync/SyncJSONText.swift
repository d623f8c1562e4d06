import Foundation

/// JSON for changes written by hand: a first pull sends hundreds of thousands of them, and
/// this is several times faster than `JSONEncoder`. The output is what `Codable` reads back
/// (a test checks), with object keys sorted.
public enum SyncJSONText {
  public static func object(_ fields: [String: SyncValue]) -> String {
    var out = "{"
    for (index, name) in fields.keys.sorted().enumerated() {
      if index > 0 { out += "," }
      append(name, to: &out)
      out += ":"
      append(fields[name]!, to: &out)
    }
    return out + "}"
  }

  public static func append(_ value: SyncValue, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .int(let number): out += String(number)
    case .double(let number): out += number.isFinite ? "\(number)" : "null"
    case .string(let text): append(text, to: &out)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        append(item, to: &out)
      }
      out += "]"
    case .object(let object): out += self.object(object)
    }
  }

  /// `texts` as a JSON array of strings: what a statement reads with `json_each`.
  public static func array(_ texts: some Sequence<String>) -> String {
    var out = "["
    for text in texts {
      if out.utf8.count > 1 { out += "," }
      append(text, to: &out)
    }
    return out + "]"
  }

  public static func append(_ text: String, to out: inout String) {
    out += "\""
    // Nearly all text (ids, stamps, names) needs no escape: copied whole.
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      out += text
      out += "\""
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// A change as pushed and pulled.
  public static func change(_ change: SyncChange) -> String {
    var out = "{\"kind\":\"\(change.kind.rawValue)\",\"id\":"
    append(change.id, to: &out)
    out += ",\"stamp\":\"\(change.stamp.text)\""
    out += change.deleted ? ",\"deleted\":true}" : ",\"fields\":\(object(change.fields))}"
    return out
  }

  /// A pull's answer.
  public static func pull(_ response: SyncPullResponse) -> String {
    var out = pageOpening
    for (index, change) in response.changes.enumerated() {
      if index > 0 { out += "," }
      out += self.change(change)
    }
    closePage(&out, cursor: response.cursor, more: response.more)
    return out
  }

  /// How a pull's answer begins: its changes follow, separated by commas, for a store that
  /// writes them itself.
  public static let pageOpening = "{\"changes\":["

  /// Ends a page begun with ``pageOpening``.
  public static func closePage(_ out: inout String, cursor: String, more: Bool) {
    out += "],\"cursor\":"
    append(cursor, to: &out)
    out += ",\"more\":\(more)}"
  }
}
