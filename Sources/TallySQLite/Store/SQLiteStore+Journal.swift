import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Journal

extension SQLiteStore {
  public func setJournalEntry(_ entry: JournalEntry, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      try JournalEntryRecord(entry, user: user).save(db)
      try sync.record(.journal(entry.day, text: entry.text))
    }
  }

  public func clearJournalEntry(on day: Day, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      _ = try JournalEntryRecord.deleteOne(
        db, key: ["user_id": user.storeText, "day": day.description])
      try sync.record(.journal(day, text: nil))
    }
  }

  public func journalEntry(on day: Day, for user: UUID) async throws -> JournalEntry? {
    try await read { db in
      try db.requireUser(user)
      return try JournalEntryRecord.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM journal_entries WHERE user_id = ? AND day = ?"),
        arguments: [user.storeText, day.description]
      )?.entry()
    }
  }

  public func journalEntries(in range: ClosedRange<Day>, for user: UUID) async throws
    -> [JournalEntry]
  {
    try await readAside { db in try Self.journalEntries(db, in: range, user: user) }
  }

  static func journalEntries(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [JournalEntry]
  {
    try db.requireUser(user)
    return try JournalEntryRecord.fetchAll(
      db.cachedStatement(sql: "SELECT * FROM journal_entries WHERE user_id = ? AND day BETWEEN ? AND ? ORDER BY day"),
      arguments: [user.storeText, range.lowerBound.description, range.upperBound.description]
    ).map { record throws(StoreError) in try record.entry() }
  }

  public func addChatMessage(_ message: ChatMessage, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      guard try !ChatMessageRecord.exists(db, key: message.id.storeText) else {
        throw StoreError.conflict("a chat message with id \(message.id.storeText) already exists")
      }
      try ChatMessageRecord(message, user: user).insert(db)
      try sync.record(.chat(message))
    }
  }

  public func chatMessages(on day: Day, for user: UUID) async throws -> [ChatMessage] {
    try await chatMessages(in: day...day, for: user)
  }

  public func chatMessages(in range: ClosedRange<Day>, for user: UUID) async throws
    -> [ChatMessage]
  {
    try await readAside { db in try Self.chatMessages(db, in: range, user: user) }
  }

  static func chatMessages(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [ChatMessage]
  {
    try db.requireUser(user)
    return try ChatMessageRecord.fetchAll(
      db.cachedStatement(
        sql: "SELECT * FROM chat_messages WHERE user_id = ? AND day BETWEEN ? AND ? ORDER BY day, sent_at, role DESC, id"),
      arguments: [user.storeText, range.lowerBound.description, range.upperBound.description]
    ).map { record throws(StoreError) in try record.message() }
  }

  public func journalActivity(in range: ClosedRange<Day>, for user: UUID) async throws
    -> JournalActivity
  {
    try await read { db in
      JournalActivity(
        entries: try Self.journalEntries(db, in: range, user: user),
        messages: try Self.chatMessages(db, in: range, user: user))
    }
  }
}
