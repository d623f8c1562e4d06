/// The journal text a person keeps for one day, edited in place: at most one per user and day.
public struct JournalEntry: Hashable, Codable, Sendable {
  public var day: Day
  public var text: String

  /// Roughly forty printed pages: a generous day, still a bounded row.
  public static let maxCharacters = 100_000

  public init(day: Day, text: String) throws(ValidationError) {
    self.day = day
    self.text = try JournalText.validated(text, field: "text", maxCharacters: Self.maxCharacters)
  }

  private enum CodingKeys: String, CodingKey { case day, text }

  // Decoding goes through the validating initialiser so imported entries obey the typed rules.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        day: container.decode(Day.self, forKey: .day),
        text: container.decode(String.self, forKey: .text))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: container.codingPath, debugDescription: error.description))
    }
  }
}
