import Foundation
import TallyCore

/// The orders lists come back in, shared by every implementation so they agree exactly.
public enum StoreOrder {
  /// By `sortOrder`, then name, then id: the same order on every run.
  public static func habits(_ a: Habit, _ b: Habit) -> Bool {
    (a.sortOrder, a.name, a.id.storeText) < (b.sortOrder, b.name, b.id.storeText)
  }

  /// By title, then id.
  public static func shows(_ a: Show, _ b: Show) -> Bool {
    (a.title, a.id.storeText) < (b.title, b.id.storeText)
  }

  /// By air day, then show id, season and number.
  public static func episodes(_ a: Episode, _ b: Episode) -> Bool {
    (a.airDay, a.showID.storeText, a.season, a.number)
      < (b.airDay, b.showID.storeText, b.season, b.number)
  }

  /// By name.
  public static func users(_ a: User, _ b: User) -> Bool {
    (a.name, a.id.storeText) < (b.name, b.id.storeText)
  }
}

/// The rule for a habit entry's note.
public enum EntryNote {
  public static let maxCharacters = 2_000

  /// What a note argument does to the stored note: `nil` keeps it, blank text removes it,
  /// other text (trimmed) replaces it.
  public static func resolve(_ new: String?, keeping old: String?) throws(ValidationError)
    -> String?
  {
    guard let new else { return old }
    let trimmed = new.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.count <= maxCharacters else {
      throw ValidationError.tooLong("note", max: maxCharacters, length: trimmed.count)
    }
    try NulFreeText.check(trimmed, field: "note")
    return trimmed
  }
}

extension EntryNote {
  /// The note a mark writes, resolved as ``resolve(_:keeping:)`` does; a noted day exists only
  /// for its note, so `.noted` must be given one that is not blank.
  public static func resolve(_ new: String?, for mark: DayMark) throws(ValidationError) -> String? {
    let note = try resolve(new, keeping: nil)
    if mark == .noted, note == nil { throw emptyNoted }
    return note
  }

  /// The days a store marks, each once in order, and the note it writes on each: checked once,
  /// before the store's transaction, as the note is the same for every day.
  public static func marking(_ days: [Day], _ note: String?, for mark: DayMark) throws(StoreError)
    -> (days: [Day], note: String?)
  {
    (Set(days).sorted(), try StoreError.validating { () throws(ValidationError) in try resolve(note, for: mark) })
  }

  static let emptyNoted = ValidationError(
    field: "note", rule: "must not be empty on a day that is neither done nor skipped (the note is all it holds)",
    kind: .empty)

  /// An entry as a store keeps it: note trimmed (blank removed), amount checked against the
  /// habit's kind when the habit is known.
  public static func checked(_ entry: HabitEntry, of habit: Habit?) throws(StoreError) -> HabitEntry {
    try StoreError.validating { () throws(ValidationError) in
      try habit?.checkEntry(status: entry.status, amount: entry.amount)
      if let amount = entry.amount { _ = try amount.validated() }
      var result = entry
      result.note = try EntryNote.resolve(entry.note, keeping: nil)
      if result.status == .noted, result.note == nil { throw emptyNoted }
      return result
    }
  }
}
