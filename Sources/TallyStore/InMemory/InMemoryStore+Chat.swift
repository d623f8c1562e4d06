import Foundation
import TallyCore

extension InMemoryStore {
  public func updateChatMessage(id: UUID, text: String, for user: UUID) throws -> ChatMessage {
    try requireUser(user)
    guard let index = messages.firstIndex(where: { $0.owner == user && $0.message.id == id }) else {
      throw StoreError.notFound(.chatMessage(id))
    }
    let old = messages[index].message
    let message = try StoreError.validating { () throws(ValidationError) in
      try ChatMessage(id: id, day: old.day, role: old.role, text: text, sentAt: old.sentAt)
    }
    messages[index].message = message
    return message
  }

  public func deleteChatMessage(id: UUID, for user: UUID) throws {
    try requireUser(user)
    guard let index = messages.firstIndex(where: { $0.owner == user && $0.message.id == id }) else {
      throw StoreError.notFound(.chatMessage(id))
    }
    messages.remove(at: index)
  }

  public func searchJournal(_ text: String, for user: UUID) throws -> [JournalEntry] {
    guard let query = JournalSearch.query(text) else { return [] }
    return try journalEntries(in: Day.allTime, for: user).reversed().filter { JournalSearch.matches($0, query) }
  }
}
