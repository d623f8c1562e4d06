import Foundation

/// Fields and stamps as every store's `sync_entities` columns hold them: canonical JSON (keys
/// sorted).
public enum SyncJSON {
  public static func text(_ fields: [String: SyncValue]) -> String { SyncJSONText.object(fields) }

  /// One stamp when every field shares it (nearly always), else an object of them.
  public static func stampsText(_ stamps: [String: HybridStamp]) -> String {
    if let first = stamps.values.first, stamps.values.allSatisfy({ $0.text == first.text }) { return first.text }
    return text(stamps.mapValues { .string($0.text) })
  }

  public static func fields(_ text: String) throws -> [String: SyncValue] {
    guard case .object(let fields) = try SyncJSONReader.value(text.utf8) else { throw SyncJSONError(text: text) }
    return fields
  }

  public static func stamps(_ text: String, fields: some Collection<String>) throws -> [String: HybridStamp] {
    if !text.hasPrefix("{") {
      guard let stamp = HybridStamp(text) else { throw SyncJSONError(text: text) }
      return Dictionary(uniqueKeysWithValues: fields.map { ($0, stamp) })
    }
    return try self.fields(text).mapValues { value in
      guard let text = value.string, let stamp = HybridStamp(text) else { throw SyncJSONError(text: "\(value)") }
      return stamp
    }
  }
}

public struct SyncJSONError: Error, CustomStringConvertible {
  public let text: String

  public init(text: String) {
    self.text = text
  }

  public var description: String { "a sync row holds '\(text)', which is not what Tally writes" }
}
