import Foundation

/// Where a show stands for the user. Only `watching` shows put providers on the calendar.
public enum ShowStatus: String, Codable, Sendable, CaseIterable {
  case watching, paused, finished
}

/// A show on the user's watchlist, with the services that stream it in each country.
public struct Show: Identifiable, Hashable, Sendable {
  public let id: UUID
  public let title: String
  public let status: ShowStatus
  /// Keyed by upper-case ISO 3166 alpha-2 country code.
  public let providers: [String: [Provider]]
  /// The show's TMDB id when it came from TMDB, so fetching it again updates this show.
  public let tmdbID: Int?

  public init(
    id: UUID, title: String, status: ShowStatus, providers: [String: [Provider]] = [:],
    tmdbID: Int? = nil
  ) throws(ValidationError) {
    if let tmdbID, tmdbID <= 0 {
      throw ValidationError(field: "show.tmdbID", rule: "must be a positive TMDB id, not \(tmdbID)")
    }
    let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw ValidationError(field: "show.title", rule: "must not be empty", kind: .empty)
    }
    try NulFreeText.check(trimmed, field: "show.title")
    var byCountry: [String: [Provider]] = [:]
    for (country, list) in providers {
      let code = try CountryCode.normalized(country, field: "show.providers")
      guard byCountry[code] == nil else {
        throw ValidationError(
          field: "show.providers", rule: "must list each country once, but \(code) appears twice")
      }
      byCountry[code] = list
    }
    self.id = id
    self.title = trimmed
    self.status = status
    self.providers = byCountry
    self.tmdbID = tmdbID
  }

  /// The services streaming this show in `country` (upper-case code); empty when none.
  public func providers(in country: String) -> [Provider] {
    providers[country] ?? []
  }
}

extension Show: Codable {
  private enum CodingKeys: String, CodingKey { case id, title, status, providers, tmdbID }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: c.decode(UUID.self, forKey: .id),
        title: c.decode(String.self, forKey: .title),
        status: c.decode(ShowStatus.self, forKey: .status),
        providers: c.decodeIfPresent([String: [Provider]].self, forKey: .providers) ?? [:],
        tmdbID: c.decodeIfPresent(Int.self, forKey: .tmdbID))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: c.codingPath, debugDescription: error.description))
    }
  }
}
