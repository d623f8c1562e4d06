import Foundation
import TallyCore

/// A user's journal: one entry per day, edited in place, and any number of chat messages.
public protocol JournalRepository: Sendable {
  /// Writes the day's entry, replacing any earlier text.
  func setJournalEntry(_ entry: JournalEntry, for user: UUID) async throws

  /// Removes the day's entry; nothing happens when there is none.
  func clearJournalEntry(on day: Day, for user: UUID) async throws

  /// The day's entry, if any.
  func journalEntry(on day: Day, for user: UUID) async throws -> JournalEntry?

  /// Entries in `range`, by day.
  func journalEntries(in range: ClosedRange<Day>, for user: UUID) async throws -> [JournalEntry]

  /// Adds a message to its day; ``StoreError/conflict(_:)`` when its id is taken.
  func addChatMessage(_ message: ChatMessage, for user: UUID) async throws

  /// The day's messages by `sentAt`; of messages sent at the same instant, the user's come
  /// before the assistant's, and then they go by id, so every replica shows one order.
  func chatMessages(on day: Day, for user: UUID) async throws -> [ChatMessage]

  /// Messages in `range`, by day and then as ``chatMessages(on:for:)`` orders them.
  func chatMessages(in range: ClosedRange<Day>, for user: UUID) async throws -> [ChatMessage]

  /// Replaces the text of one of the user's messages and returns the message. Its day, role
  /// and `sentAt` stay: `sentAt` is the instant it was first written. The text follows
  /// ``ChatMessage``'s rules (``StoreError/invalid(_:)``); ``StoreError/notFound(_:)`` when the
  /// user has no message with this id, another user's included.
  @discardableResult
  func updateChatMessage(id: UUID, text: String, for user: UUID) async throws -> ChatMessage

  /// Removes one of the user's messages; ``StoreError/notFound(_:)`` when the user has no
  /// message with this id, another user's included.
  func deleteChatMessage(id: UUID, for user: UUID) async throws

  /// The user's journal entries whose text contains `text`, ignoring case and diacritics,
  /// newest first; none for blank text.
  func searchJournal(_ text: String, for user: UUID) async throws -> [JournalEntry]

  /// Which days in `range` have an entry and which have chat (a `user` message).
  func journalActivity(in range: ClosedRange<Day>, for user: UUID) async throws -> JournalActivity
}
