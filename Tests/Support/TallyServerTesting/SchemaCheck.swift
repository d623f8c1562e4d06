import Foundation
import HummingbirdTesting
import NIOCore
import TallyAPI
import TallyHTTP
import TallyServer
import Testing

/// Checks a response body against a schema of the served OpenAPI document, so the document
/// cannot promise a shape the code does not send. Knows the JSON Schema keywords the document
/// uses; an unknown keyword fails rather than passing silently.
package enum SchemaCheck {
  // Read once and never changed, so sharing it between concurrent tests is safe.
  nonisolated(unsafe) static let document: [String: Any] = (try? OpenAPIDocument.merged()) ?? [:]

  /// Every place `value` breaks the named component schema, as `path: what` lines.
  package static func violations(of value: JSONValue, against name: String) -> [String] {
    var found: [String] = []
    check(value, ["$ref": "#/components/schemas/\(name)"], at: "$", into: &found)
    return found
  }

  private static let known: Set<String> = [
    "$ref", "type", "enum", "const", "required", "properties", "additionalProperties", "items",
    "minItems", "maxItems", "minimum", "maximum", "pattern", "minLength", "maxLength", "format",
    "propertyNames", "description", "examples", "default", "contentMediaType", "contentSchema",
  ]

  private static func resolve(_ reference: String) -> [String: Any] {
    var current: Any? = document
    for key in reference.dropFirst(2).split(separator: "/") {
      current = (current as? [String: Any])?[String(key)]
    }
    return current as? [String: Any] ?? [:]
  }

  private static func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }
  private static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

  /// A schema's `enum` or `const` value as text, to compare with ``JSONValue/text``.
  private static func text(_ value: Any) -> String {
    if let string = value as? String { return string }
    if let number = value as? NSNumber { return JSONValue.number(number.doubleValue).text }
    return "\(value)"
  }

  private static func check(_ value: JSONValue, _ schema: [String: Any], at path: String, into found: inout [String]) {
    if let unknown = schema.keys.first(where: { !known.contains($0) }) {
      found.append("\(path): the checker does not know '\(unknown)'")
    }
    if let reference = schema["$ref"] as? String {
      check(value, resolve(reference), at: path, into: &found)
    }
    if let type = schema["type"] {
      let types = (type as? [String]) ?? [type as? String ?? ""]
      guard types.contains(where: value.isA) else {
        found.append("\(path): \(value.text) is not \(types.joined(separator: " or "))")
        return
      }
    }
    if let options = schema["enum"] as? [Any], !options.map(text).contains(value.text) {
      found.append("\(path): \(value.text) is not one of \(options.map(text))")
    }
    if let constant = schema["const"], text(constant) != value.text {
      found.append("\(path): \(value.text) is not \(text(constant))")
    }
    switch value {
    case .number(let number):
      if let minimum = double(schema["minimum"]), number < minimum { found.append("\(path): \(number) < \(minimum)") }
      if let maximum = double(schema["maximum"]), number > maximum { found.append("\(path): \(number) > \(maximum)") }
    case .string(let text):
      if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
        found.append("\(path): '\(text)' does not match \(pattern)")
      }
      if let minimum = int(schema["minLength"]), text.count < minimum { found.append("\(path): shorter than \(minimum)") }
      if let maximum = int(schema["maxLength"]), text.count > maximum { found.append("\(path): longer than \(maximum)") }
      if schema["format"] as? String == "uuid", UUID(uuidString: text) == nil || text != text.lowercased() {
        found.append("\(path): '\(text)' is not a lower-case UUID")
      }
      // A string holding JSON (a server-sent event's data): read, then checked as its own value.
      if schema["contentMediaType"] as? String == "application/json" {
        guard let inner = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
          found.append("\(path): '\(text)' is not JSON")
          return
        }
        if let content = schema["contentSchema"] as? [String: Any] { check(inner, content, at: "\(path) as JSON", into: &found) }
      }
    case .array(let items):
      if let minimum = int(schema["minItems"]), items.count < minimum { found.append("\(path): fewer than \(minimum) items") }
      if let maximum = int(schema["maxItems"]), items.count > maximum { found.append("\(path): more than \(maximum) items") }
      if let itemSchema = schema["items"] as? [String: Any] {
        for (index, item) in items.enumerated() { check(item, itemSchema, at: "\(path)[\(index)]", into: &found) }
      }
    case .object(let object):
      for key in schema["required"] as? [String] ?? [] where object[key] == nil {
        found.append("\(path): '\(key)' is missing")
      }
      let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
      for (key, item) in object.sorted(by: { $0.key < $1.key }) {
        if let names = schema["propertyNames"] as? [String: Any] { check(.string(key), names, at: "\(path) key", into: &found) }
        if let property = properties[key] {
          check(item, property, at: "\(path).\(key)", into: &found)
        } else if let additional = schema["additionalProperties"] as? [String: Any] {
          check(item, additional, at: "\(path).\(key)", into: &found)
        } else if schema["additionalProperties"] as? Bool == false {
          found.append("\(path): '\(key)' is not in the schema")
        }
      }
    case .null, .bool:
      break
    }
  }
}

/// A JSON value read strictly: a boolean is never a number, so `type` checks mean what they say.
package indirect enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() { self = .null }
    else if let value = try? container.decode(Bool.self) { self = .bool(value) }
    else if let value = try? container.decode(Double.self) { self = .number(value) }
    else if let value = try? container.decode(String.self) { self = .string(value) }
    else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
    else { self = .object(try container.decode([String: JSONValue].self)) }
  }

  package func isA(_ type: String) -> Bool {
    switch (self, type) {
    case (.null, "null"), (.bool, "boolean"), (.number, "number"), (.string, "string"), (.array, "array"),
      (.object, "object"):
      true
    case (.number(let value), "integer"): value.rounded() == value
    default: false
    }
  }

  /// Short text for messages and for comparing with `enum` and `const`.
  package var text: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    case .string(let value): value
    case .array(let items): "[\(items.count) items]"
    case .object(let object): "{\(object.keys.sorted().joined(separator: ", "))}"
    }
  }
}

extension TestResponse {
  /// The body as a strict JSON value (`null` when it is not JSON).
  package var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView))) ?? .null }

  /// Expects the body to be exactly what the OpenAPI schema `name` describes.
  package func expectSchema(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(SchemaCheck.violations(of: json, against: name) == [], sourceLocation: sourceLocation)
  }

  /// An array body whose every item is the schema `name`.
  package func expectSchema(arrayOf name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .array(let items) = json else {
      Issue.record("the body is not an array", sourceLocation: sourceLocation)
      return
    }
    #expect(items.flatMap { SchemaCheck.violations(of: $0, against: name) } == [], sourceLocation: sourceLocation)
  }
}
