import Foundation

/// A field's value in a change: any JSON value. A field set to `null` is a value (no icon, no
/// note); a field left out of a change is not changed.
public enum SyncValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([SyncValue])
  case object([String: SyncValue])

  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }
}

extension SyncValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Strings first: nearly every value is one, and each failed try builds an error.
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode([SyncValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: SyncValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
