import Foundation
import TallyCore
import TallyStore

/// Finds the habit a HABIT argument names: a full id, an exact name, or the start of an id.
enum HabitLookup {
  /// Looks among all the user's habits, archived ones included, so they can be brought back
  /// or deleted.
  static func find(_ reference: String, in session: Session) async throws -> Habit {
    let habits = try await session.store.habits(for: session.user.id, includingArchived: true)
    return try find(reference, in: habits)
  }

  static func find(_ reference: String, in habits: [Habit]) throws -> Habit {
    let text = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    if let id = UUID(uuidString: text), let habit = habits.first(where: { $0.id == id }) {
      return habit
    }
    let named = habits.filter { $0.name == text }
    if named.count == 1 { return named[0] }
    if named.count > 1 {
      throw CommandFailure(
        "\(named.count) habits are named '\(text)': name one by its id "
          + "(\(Sentence.list(named.map { shortID($0.id) }))).")
    }
    let prefix = text.lowercased()
    let isIDPrefix =
      !prefix.isEmpty && prefix.allSatisfy { $0.isHexDigit || $0 == "-" }
    if isIDPrefix {
      let matching = habits.filter { $0.id.storeText.hasPrefix(prefix) }
      if matching.count == 1 { return matching[0] }
      if matching.count > 1 {
        throw CommandFailure(
          "The id start '\(text)' fits \(matching.count) habits "
            + "(\(Sentence.list(matching.map { "'\($0.name)'" }))): give more of the id.")
      }
    }
    throw CommandFailure(
      "There is no habit named '\(text)' or with an id starting so; 'tally habit list --archived' "
        + "shows them all.")
  }

  /// The first 8 digits of an id: what lists show, enough to name a habit.
  static func shortID(_ id: UUID) -> String {
    String(id.storeText.prefix(8))
  }
}
