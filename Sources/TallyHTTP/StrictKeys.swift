import Foundation

/// ``JSONBody`` refuses unknown fields at the top of a body; objects nested inside one (a
/// show's providers, a list of episodes) call this from their `init(from:)` to do the same.
extension Decoder {
  package func rejectUnknownKeys(_ known: Set<String>) throws {
    let container = try container(keyedBy: AnyKey.self)
    guard let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) else {
      return
    }
    throw DecodingError.dataCorrupted(
      .init(
        codingPath: codingPath + [AnyKey(stringValue: unknown)],
        debugDescription: "'\(unknown)' is not known here; the known fields are "
          + known.sorted().map { "'\($0)'" }.joined(separator: ", ")))
  }
}

/// A coding key named at run time, for paths in decoding errors.
package struct AnyKey: CodingKey {
  package var stringValue: String
  package var intValue: Int? { nil }
  package init(stringValue: String) { self.stringValue = stringValue }
  package init?(intValue: Int) { nil }
}
