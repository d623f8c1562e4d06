import Foundation
import TallyCore

/// Adds history from elsewhere (another tracker's file) to a user's habits without changing
/// anything already stored: what every import that merges is built on.
public protocol HistoryRepository: Sendable {
  /// Creates ``HistoryAdditions/newHabits`` with their entries and adds
  /// ``HistoryAdditions/entries`` to the user's existing habits, all in one transaction.
  ///
  /// A day that already has an entry keeps it, note included, and is reported in
  /// ``HistoryAdded/daysKept``: history is added, never overwritten. Refuses, changing
  /// nothing: a habit, entry or note that breaks a rule (``StoreError/invalid(_:)``), a new
  /// habit whose id any user has or whose name one of the user's habits has
  /// (``StoreError/conflict(_:)``), and an existing habit that is not the user's or a user
  /// who does not exist (``StoreError/notFound(_:)``).
  @discardableResult
  func addHistory(_ additions: HistoryAdditions, for user: UUID) async throws -> HistoryAdded
}

/// Habits and entries to add to a user's data.
public struct HistoryAdditions: Hashable, Sendable {
  /// Habits to create, with their entries by day.
  public var newHabits: [UserSnapshot.HabitWithEntries]
  /// Entries for habits the user already has, by habit id, each list by day.
  public var entries: [UUID: [HabitEntry]]

  public init(newHabits: [UserSnapshot.HabitWithEntries] = [], entries: [UUID: [HabitEntry]] = [:]) {
    self.newHabits = newHabits
    self.entries = entries
  }

  /// Checks every habit and note, refuses a day listed twice for one habit, a new habit whose
  /// name another new habit has, and returns the additions with notes trimmed (blank ones
  /// removed). Every store calls it before it writes.
  public func checked() throws(StoreError) -> HistoryAdditions {
    func checkedEntries(_ entries: [HabitEntry], habit: String, kind: Habit?) throws(StoreError) -> [HabitEntry] {
      var days: Set<Day> = []
      var result: [HabitEntry] = []
      result.reserveCapacity(entries.count)
      for entry in entries {
        guard days.insert(entry.day).inserted else {
          throw .conflict("the day \(entry.day) of the habit '\(habit)' is listed twice")
        }
        result.append(try EntryNote.checked(entry, of: kind))
      }
      return result
    }
    var result = HistoryAdditions()
    var names: Set<String> = []
    var ids: Set<UUID> = []
    for item in newHabits {
      let habit = try StoreError.validating { () throws(ValidationError) in try item.habit.validated() }
      guard ids.insert(habit.id).inserted else {
        throw .conflict("the habit \(habit.id.storeText) is listed twice")
      }
      guard names.insert(habit.name).inserted else {
        throw .conflict("two new habits are named '\(habit.name)'")
      }
      result.newHabits.append(
        UserSnapshot.HabitWithEntries(habit: habit, entries: try checkedEntries(item.entries, habit: habit.name, kind: habit)))
    }
    for (id, entries) in entries {
      result.entries[id] = try checkedEntries(entries, habit: id.storeText, kind: nil)
    }
    return result
  }
}

/// What ``HistoryRepository/addHistory(_:for:)`` stored.
public struct HistoryAdded: Hashable, Sendable {
  public var habitsCreated: Int
  public var entriesAdded: Int
  /// Days of existing habits left as they were because they already had an entry, by habit.
  public var daysKept: [UUID: [Day]]

  public init(habitsCreated: Int, entriesAdded: Int, daysKept: [UUID: [Day]]) {
    self.habitsCreated = habitsCreated
    self.entriesAdded = entriesAdded
    self.daysKept = daysKept
  }
}
