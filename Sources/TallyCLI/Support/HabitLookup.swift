import Foundation
import TallyCore
import TallyStore

/// Finds the habit a HABIT argument names: a full id, a name (in any case), or the start of an id.
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
    // Names are unique as NameKey compares them (the database keeps it so).
    if let named = habits.first(where: { NameKey.same($0.name, text) }) { return named }
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
