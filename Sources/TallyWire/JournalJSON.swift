import Foundation
import TallyCore
import TallyStore

/// One day of the journal as `tally journal --json` prints it and `GET /api/v1/journal/{day}`
/// sends it: the day, its entry's text (`null` when it has none) and its chat messages.
public struct JournalDayJSON: Encodable, Sendable {
  public let day: Day
  public let entry: String?
  public let chat: [ChatJSON]

  public init(day: Day, entry: String?, chat: [ChatJSON]) {
    self.day = day
    self.entry = entry
    self.chat = chat
  }

  private enum CodingKeys: String, CodingKey { case day, entry, chat }

  // `entry` is written as null rather than left out, so a reader need not guess.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(day, forKey: .day)
    try c.encode(entry, forKey: .entry)
    try c.encode(chat, forKey: .chat)
  }
}

/// A chat message as `--json` prints it, the API sends it and `export` writes it: lower-case
/// id, `sentAt` in RFC 3339.
public struct ChatJSON: Codable, Equatable, Sendable {
  public var id: String
  public var day: Day
  public var role: ChatRole
  public var text: String
  public var sentAt: Date

  public init(_ message: ChatMessage) {
    id = message.id.storeText
    day = message.day
    role = message.role
    text = message.text
    sentAt = message.sentAt
  }

  public func message() throws -> ChatMessage {
    try ChatMessage(
      id: try WireID.uuid(id, field: "message id"), day: day, role: role, text: text, sentAt: sentAt)
  }
}
