import Foundation

/// One episode of a show and the day it airs.
///
/// Season 0 is where TMDB keeps specials, and some shows number a pilot 0, so both numbers
/// start at 0.
public struct Episode: Hashable, Sendable {
  public let showID: UUID
  public let season: Int
  public let number: Int
  public let title: String
  public let airDay: Day

  public init(showID: UUID, season: Int, number: Int, title: String, airDay: Day)
    throws(ValidationError)
  {
    guard season >= 0 else {
      throw ValidationError(field: "episode.season", rule: "must be 0 or more (0 holds specials), not \(season)", kind: .negative)
    }
    guard number >= 0 else {
      throw ValidationError(field: "episode.number", rule: "must be 0 or more, not \(number)", kind: .negative)
    }
    let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw ValidationError(field: "episode.title", rule: "must not be empty", kind: .empty)
    }
    try NulFreeText.check(trimmed, field: "episode.title")
    self.showID = showID
    self.season = season
    self.number = number
    self.title = trimmed
    self.airDay = airDay
  }
}

extension Episode: Codable {
  private enum CodingKeys: String, CodingKey { case showID, season, number, title, airDay }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        showID: c.decode(UUID.self, forKey: .showID),
        season: c.decode(Int.self, forKey: .season),
        number: c.decode(Int.self, forKey: .number),
        title: c.decode(String.self, forKey: .title),
        airDay: c.decode(Day.self, forKey: .airDay))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: c.codingPath, debugDescription: error.description))
    }
  }
}
