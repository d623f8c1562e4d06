import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Editing chat and searching the journal

extension SQLiteStore {
  public func updateChatMessage(id: UUID, text: String, for user: UUID) async throws -> ChatMessage {
    try await write(recordingFor: user) { db, sync in
      let old = try Self.ownedMessage(db, id: id, user: user).message()
      let message = try StoreError.validating { () throws(ValidationError) in
        try ChatMessage(id: id, day: old.day, role: old.role, text: text, sentAt: old.sentAt)
      }
      try ChatMessageRecord(message, user: user).update(db)
      try sync.record(.chat(message))
      return message
    }
  }

  public func deleteChatMessage(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      _ = try Self.ownedMessage(db, id: id, user: user).delete(db)
      try sync.record(.chatDeleted(id))
    }
  }

  /// Another user's message is "not found" too, so an id never tells whose it is.
  static func ownedMessage(_ db: Database, id: UUID, user: UUID) throws -> ChatMessageRecord {
    try db.requireUser(user)
    typealias C = ChatMessageRecord.Columns
    guard
      let record = try ChatMessageRecord.filter(C.id == id.storeText && C.userID == user.storeText).fetchOne(db)
    else { throw StoreError.notFound(.chatMessage(id)) }
    return record
  }

  /// Matched in Swift rather than with LIKE, which folds only ASCII letters: a journal holds
  /// thousands of entries at most, read in one query.
  public func searchJournal(_ text: String, for user: UUID) async throws -> [JournalEntry] {
    guard let query = JournalSearch.query(text) else {
      try await read { db in try db.requireUser(user) }
      return []
    }
    return try await readAside { db in
      try Self.journalEntries(db, in: Day.allTime, user: user).reversed().filter { JournalSearch.matches($0, query) }
    }
  }
}
