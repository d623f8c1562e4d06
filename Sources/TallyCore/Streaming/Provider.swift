import Foundation

/// A streaming service, identified by its TMDB watch-provider id (8 is Netflix, 337 Disney Plus).
///
/// The id is the identity: two providers with the same id are the same service even when their
/// names or logos were fetched at different times.
public struct Provider: Identifiable, Hashable, Sendable {
  public let id: Int
  public let name: String
  public let logoURL: URL?

  public init(id: Int, name: String, logoURL: URL? = nil) throws(ValidationError) {
    guard id > 0 else {
      throw ValidationError(field: "provider.id", rule: "must be a positive TMDB provider id, not \(id)")
    }
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw ValidationError(field: "provider.name", rule: "must not be empty", kind: .empty)
    }
    try NulFreeText.check(trimmed, field: "provider.name")
    self.id = id
    self.name = trimmed
    self.logoURL = logoURL
  }
}

extension Provider: Codable {
  private enum CodingKeys: String, CodingKey { case id, name, logoURL }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: c.decode(Int.self, forKey: .id),
        name: c.decode(String.self, forKey: .name),
        logoURL: c.decodeIfPresent(URL.self, forKey: .logoURL))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: c.codingPath, debugDescription: error.description))
    }
  }
}
