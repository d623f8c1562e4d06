import Foundation
import TallyCore
import TallyStore

/// A chat message named on the command line by its id or the start of it (8 characters or
/// more, so a typo rarely names another message).
enum ChatLookup {
  static func message(_ reference: String, in session: Session) async throws -> ChatMessage {
    let text = reference.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard text.count >= 8 else {
      throw CommandFailure("The message id '\(reference)' is too short: give at least its first 8 characters.")
    }
    let messages = try await session.store.chatMessages(in: Day.allTime, for: session.user.id)
    let matching = messages.filter { $0.id.storeText.hasPrefix(text) }
    guard matching.count == 1 else {
      throw CommandFailure(
        matching.isEmpty
          ? "You have no chat message with an id starting '\(text)': 'tally journal DAY --json' lists a day's ids."
          : "The id start '\(text)' fits \(matching.count) messages: give more of the id.")
    }
    return matching[0]
  }
}
