import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Journal and chat

extension PostgresStore {
  public func setJournalEntry(_ entry: JournalEntry, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      try await connection.saveJournalEntry(entry, user: user)
      try await sync.record(.journal(entry.day, text: entry.text))
    }
  }

  public func clearJournalEntry(on day: Day, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      try await connection.run("DELETE FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)")
      try await sync.record(.journal(day, text: nil))
    }
  }

  public func journalEntry(on day: Day, for user: UUID) async throws -> JournalEntry? {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows(
        "SELECT day, text FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)"
      ).first.map(PostgresRows.journalEntry)
    }
  }

  public func journalEntries(in range: ClosedRange<Day>, for user: UUID) async throws -> [JournalEntry] {
    try await read { connection in try await connection.journalEntries(in: range, user: user) }
  }

  public func addChatMessage(_ message: ChatMessage, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM chat_messages WHERE id = \(message.id))") else {
        throw StoreError.conflict("a chat message with id \(message.id.storeText) already exists")
      }
      try await connection.insertChatMessage(message, user: user)
      try await sync.record(.chat(message))
    }
  }

  public func chatMessages(on day: Day, for user: UUID) async throws -> [ChatMessage] {
    try await chatMessages(in: day...day, for: user)
  }

  public func chatMessages(in range: ClosedRange<Day>, for user: UUID) async throws -> [ChatMessage] {
    try await read { connection in try await connection.chatMessages(in: range, user: user) }
  }

  public func journalActivity(in range: ClosedRange<Day>, for user: UUID) async throws -> JournalActivity {
    try await read { connection in
      JournalActivity(
        entries: try await connection.journalEntries(in: range, user: user),
        messages: try await connection.chatMessages(in: range, user: user))
    }
  }

  public func updateChatMessage(id: UUID, text: String, for user: UUID) async throws -> ChatMessage {
    try await write(recordingFor: user) { connection, sync in
      let old = try await connection.ownedMessage(id, user: user)
      let message = try StoreError.validating { () throws(ValidationError) in
        try ChatMessage(id: id, day: old.day, role: old.role, text: text, sentAt: old.sentAt)
      }
      try await connection.run("UPDATE chat_messages SET text = \(message.text) WHERE id = \(id)")
      try await sync.record(.chat(message))
      return message
    }
  }

  public func deleteChatMessage(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      _ = try await connection.ownedMessage(id, user: user)
      try await connection.run("DELETE FROM chat_messages WHERE id = \(id)")
      try await sync.record(.chatDeleted(id))
    }
  }

  /// Matched in Swift, as on SQLite: folding case and diacritics the same way in both stores.
  public func searchJournal(_ text: String, for user: UUID) async throws -> [JournalEntry] {
    guard let query = JournalSearch.query(text) else {
      try await read { connection in try await connection.requireUser(user) }
      return []
    }
    return try await read { connection in
      try await connection.journalEntries(in: Day.allTime, user: user).reversed()
        .filter { JournalSearch.matches($0, query) }
    }
  }
}

extension PostgresConnection {
  func journalEntries(in range: ClosedRange<Day>, user: UUID) async throws -> [JournalEntry] {
    try await requireUser(user)
    return try await rows(
      """
      SELECT day, text FROM journal_entries WHERE user_id = \(user)
      AND day BETWEEN \(range.lowerBound.description) AND \(range.upperBound.description) ORDER BY day
      """
    ).map(PostgresRows.journalEntry)
  }

  func chatMessages(in range: ClosedRange<Day>, user: UUID) async throws -> [ChatMessage] {
    try await requireUser(user)
    return try await rows(
      """
      SELECT * FROM chat_messages WHERE user_id = \(user)
      AND day BETWEEN \(range.lowerBound.description) AND \(range.upperBound.description)
      ORDER BY day, sent_at, role DESC, id
      """
    ).map(PostgresRows.chatMessage)
  }

  /// `replacing`: the user's message with the same id takes the new fields (a merge).
  func insertChatMessage(_ message: ChatMessage, user: UUID, replacing: Bool = false) async throws {
    try await run(
      """
      INSERT INTO chat_messages (id, user_id, day, role, text, sent_at)
      VALUES (\(message.id), \(user), \(message.day.description), \(message.role.rawValue), \(message.text),
        \(InstantText.text(message.sentAt)))
      \(unescaped: replacing ? Self.chatUpdate : "")
      """)
  }

  private static let chatUpdate = """
    ON CONFLICT (id) DO UPDATE SET day = excluded.day, role = excluded.role, text = excluded.text,
      sent_at = excluded.sent_at
    WHERE chat_messages.user_id = excluded.user_id
    """

  func saveJournalEntry(_ entry: JournalEntry, user: UUID) async throws {
    try await run(
      """
      INSERT INTO journal_entries (user_id, day, text) VALUES (\(user), \(entry.day.description), \(entry.text))
      ON CONFLICT (user_id, day) DO UPDATE SET text = excluded.text
      """)
  }

  /// Another user's message is "not found" too, so an id never tells whose it is.
  func ownedMessage(_ id: UUID, user: UUID) async throws -> ChatMessage {
    guard let row = try await rows("SELECT * FROM chat_messages WHERE id = \(id) AND user_id = \(user)").first else {
      throw StoreError.notFound(.chatMessage(id))
    }
    return try PostgresRows.chatMessage(row)
  }
}
