import Foundation
import GRDB
import TallyCore
import TallyStore

/// A row of `journal_entries`.
struct JournalEntryRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "journal_entries"

  var userID: String
  var day: String
  var text: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case userID = "user_id"
    case day, text
  }

  typealias Columns = CodingKeys

  init(_ entry: JournalEntry, user: UUID) {
    userID = user.storeText
    day = entry.day.description
    text = entry.text
  }

  func entry() throws(StoreError) -> JournalEntry {
    let day = try Stored.day(day, "journal entry day")
    return try Stored.valid("journal entry of \(day)") { () throws(ValidationError) in
      try JournalEntry(day: day, text: text)
    }
  }
}

/// A row of `chat_messages`.
struct ChatMessageRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "chat_messages"

  var id: String
  var userID: String
  var day: String
  var role: String
  var text: String
  var sentAt: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case id
    case userID = "user_id"
    case day, role, text
    case sentAt = "sent_at"
  }

  typealias Columns = CodingKeys

  init(_ message: ChatMessage, user: UUID) {
    id = message.id.storeText
    userID = user.storeText
    day = message.day.description
    role = message.role.rawValue
    text = message.text
    sentAt = InstantText.text(message.sentAt)
  }

  func message() throws(StoreError) -> ChatMessage {
    let what = "chat message \(id)"
    let id = try Stored.uuid(id, "chat_messages.id")
    let day = try Stored.day(day, "\(what) day")
    let sentAt = try Stored.instant(sentAt, "\(what) sent_at")
    guard let role = ChatRole(rawValue: role) else {
      throw .corrupt("\(what) has role '\(role)'")
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try ChatMessage(id: id, day: day, role: role, text: text, sentAt: sentAt)
    }
  }
}
