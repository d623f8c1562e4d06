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

/// Habits, entries and journal text to add to a user's data.
public struct HistoryAdditions: Hashable, Sendable {
  /// Habits to create, with their entries by day.
  public var newHabits: [UserSnapshot.HabitWithEntries]
  /// Entries for habits the user already has, by habit id, each list by day.
  public var entries: [UUID: [HabitEntry]]
  /// Pieces of journal text by day, joined to the day's entry by ``JournalMerge``.
  public var journal: [Day: [String]]

  public init(
    newHabits: [UserSnapshot.HabitWithEntries] = [], entries: [UUID: [HabitEntry]] = [:], journal: [Day: [String]] = [:]
  ) {
    self.newHabits = newHabits
    self.entries = entries
    self.journal = journal
  }

  /// Checks every habit and note, refuses a day listed twice for one habit, a new habit whose
  /// name another new habit has, and returns the additions with notes trimmed (blank ones
  /// removed). Every store calls it before it writes.
  public func checked() throws(StoreError) -> HistoryAdditions {
    func checkedEntries(_ entries: [HabitEntry], habit: String, owner: Habit?) throws(StoreError) -> [HabitEntry] {
      var days: Set<Day> = []
      var result: [HabitEntry] = []
      result.reserveCapacity(entries.count)
      for entry in entries {
        guard days.insert(entry.day).inserted else {
          throw .conflict("the day \(entry.day) of the habit '\(habit)' is listed twice")
        }
        result.append(try EntryNote.checked(entry, of: owner))
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
        UserSnapshot.HabitWithEntries(habit: habit, entries: try checkedEntries(item.entries, habit: habit.name, owner: habit)))
    }
    for (id, entries) in entries {
      result.entries[id] = try checkedEntries(entries, habit: id.storeText, owner: nil)
    }
    for (day, pieces) in journal {
      let kept = pieces.compactMap(JournalMerge.piece)
      guard !kept.isEmpty else { continue }
      _ = try JournalMerge.merged(stored: nil, adding: kept, day: day)
      result.journal[day] = kept
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
  /// Journal days that had no entry and got one, and days whose entry had text added.
  public var journalAdded: Int
  public var journalMerged: Int

  public init(
    habitsCreated: Int, entriesAdded: Int, daysKept: [UUID: [Day]], journalAdded: Int = 0, journalMerged: Int = 0
  ) {
    self.habitsCreated = habitsCreated
    self.entriesAdded = entriesAdded
    self.daysKept = daysKept
    self.journalAdded = journalAdded
    self.journalMerged = journalMerged
  }
}

/// How imported text joins a day's journal entry, the same in every store and in a preview:
/// a piece the entry already holds (anywhere in it) is left out, any other is added after
/// what is there, a blank line between. So nothing written is replaced, and importing a file
/// again adds nothing.
public enum JournalMerge {
  public enum Outcome: Equatable, Sendable {
    /// The day had no entry; this is its new one.
    case added(JournalEntry)
    /// The day's entry with the new pieces after it.
    case merged(JournalEntry)
    /// Every piece is in the entry already.
    case unchanged

    /// What to write, `nil` when nothing.
    public var entry: JournalEntry? {
      switch self {
      case .added(let entry), .merged(let entry): entry
      case .unchanged: nil
      }
    }
  }

  static let separator = "\n\n"

  /// A piece as it is kept: trimmed; `nil` when blank.
  public static func piece(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  /// Refuses a result longer than a journal entry may be, naming the day.
  public static func merged(stored: String?, adding pieces: [String], day: Day) throws(StoreError) -> Outcome {
    var text = stored ?? ""
    for piece in pieces where !text.contains(piece) {
      text += text.isEmpty ? piece : separator + piece
    }
    guard text != (stored ?? "") else { return .unchanged }
    let entry = try StoreError.validating { () throws(ValidationError) in
      do throws(ValidationError) {
        return try JournalEntry(day: day, text: text)
      } catch {
        throw ValidationError(field: "the journal entry of \(day)", rule: error.rule)
      }
    }
    return stored == nil ? .added(entry) : .merged(entry)
  }
}
