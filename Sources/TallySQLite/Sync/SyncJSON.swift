import Foundation
import TallySync

/// Fields and stamps as the `sync_entities` columns hold them: canonical JSON (keys sorted),
/// written by hand because a first pull encodes hundreds of thousands of them.
enum SyncJSON {
  static func text(_ fields: [String: SyncValue]) -> String {
    var out = "{"
    for (index, name) in fields.keys.sorted().enumerated() {
      if index > 0 { out += "," }
      append(name, to: &out)
      out += ":"
      append(fields[name]!, to: &out)
    }
    return out + "}"
  }

  /// One stamp when every field shares it (nearly always), else an object of them.
  static func stampsText(_ stamps: [String: HybridStamp]) -> String {
    let distinct = Set(stamps.values)
    if distinct.count == 1 { return distinct.first!.text }
    return text(stamps.mapValues { .string($0.text) })
  }

  static func fields(_ text: String) throws -> [String: SyncValue] {
    try decoder.decode([String: SyncValue].self, from: Data(text.utf8))
  }

  static func stamps(_ text: String, fields: some Collection<String>) throws -> [String: HybridStamp] {
    if !text.hasPrefix("{") {
      guard let stamp = HybridStamp(text) else { throw SyncJSONError(text: text) }
      return Dictionary(uniqueKeysWithValues: fields.map { ($0, stamp) })
    }
    return try self.fields(text).mapValues { value in
      guard let text = value.string, let stamp = HybridStamp(text) else { throw SyncJSONError(text: "\(value)") }
      return stamp
    }
  }

  static func append(_ value: SyncValue, to out: inout String) {
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
    case .object(let object): out += text(object)
    }
  }

  static func append(_ text: String, to out: inout String) {
    out += "\""
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

  private static let decoder = JSONDecoder()
}

struct SyncJSONError: Error, CustomStringConvertible {
  let text: String
  var description: String { "a sync row holds '\(text)', which is not what Tally writes" }
}
