import Foundation

/// Who wrote a chat message. Only the person's own messages make a day count as chatted.
public enum ChatRole: String, Codable, Sendable, CaseIterable {
  case user
  case assistant
}

/// One message in a day's chat. A day holds any number of them.
///
/// `day` is stored, not derived from `sentAt`: a message may be filed under another day
/// (`tally chat 2026-03-01 …`), and storing it keeps the day rule from being applied twice.
public struct ChatMessage: Identifiable, Hashable, Codable, Sendable {
  public var id: UUID
  public var day: Day
  public var role: ChatRole
  public var text: String
  public var sentAt: Date

  /// Long enough for a pasted letter, short enough that one message cannot swamp a day.
  public static let maxCharacters = 20_000

  public init(id: UUID, day: Day, role: ChatRole, text: String, sentAt: Date) throws(ValidationError) {
    self.id = id
    self.day = day
    self.role = role
    self.text = try JournalText.validated(text, field: "text", maxCharacters: Self.maxCharacters)
    self.sentAt = sentAt
  }

  /// A message filed under the day it was sent on, by the user's day rule (SPEC 1).
  public init(
    id: UUID, role: ChatRole, text: String, sentAt: Date, calendar: DayCalendar
  ) throws(ValidationError) {
    try self.init(
      id: id, day: calendar.day(containing: sentAt), role: role, text: text, sentAt: sentAt)
  }

  private enum CodingKeys: String, CodingKey { case id, day, role, text, sentAt }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: container.decode(UUID.self, forKey: .id),
        day: container.decode(Day.self, forKey: .day),
        role: container.decode(ChatRole.self, forKey: .role),
        text: container.decode(String.self, forKey: .text),
        sentAt: container.decode(Date.self, forKey: .sentAt))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: container.codingPath, debugDescription: error.description))
    }
  }
}
