import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - History

extension PostgresStore {
  @discardableResult
  public func addHistory(_ additions: HistoryAdditions, for user: UUID) async throws -> HistoryAdded {
    let additions = try additions.checked()
    return try await write(recordingFor: user) { connection, sync in
      let existing = try await connection.habits(of: user, includingArchived: true)
      var added = 0
      for item in additions.newHabits {
        guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(item.habit.id))") else {
          throw StoreError.conflict("a habit with id \(item.habit.id.storeText) already exists")
        }
        try HabitRules.checkNameFree(item.habit.name, among: existing)
        try await connection.writeHabit(item.habit, user: user, inserting: true)
        try await sync.record(.habit(item.habit))
        try await connection.insertEntries(item.entries, habit: item.habit.id)
        try await sync.entries(item.habit.id, item.entries)
        added += item.entries.count
      }
      // A day that has an entry keeps it: DO NOTHING, and the days returned say which were added.
      var kept: [UUID: [Day]] = [:]
      for id in additions.entries.keys.sorted(by: { $0.storeText < $1.storeText }) {
        let habit = try await connection.ownedHabit(id, of: user)
        let entries = additions.entries[id] ?? []
        for entry in entries { _ = try EntryNote.checked(entry, of: habit) }
        let new = try await connection.insertEntries(entries, habit: id, keepingExisting: true)
        added += new.count
        try await sync.entries(id, entries.filter { new.contains($0.day) })
        let old = entries.map(\.day).filter { !new.contains($0) }
        if !old.isEmpty { kept[id] = old.sorted() }
      }
      var journal = (added: 0, merged: 0)
      for day in additions.journal.keys.sorted() {
        let stored = try await connection.rows(
          "SELECT day, text FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)"
        ).first.map(PostgresRows.journalEntry)
        let outcome = try JournalMerge.merged(stored: stored?.text, adding: additions.journal[day] ?? [], day: day)
        guard let entry = outcome.entry else { continue }
        if case .added = outcome { journal.added += 1 } else { journal.merged += 1 }
        try await connection.saveJournalEntry(entry, user: user)
        try await sync.record(.journal(day, text: entry.text))
      }
      return HistoryAdded(
        habitsCreated: additions.newHabits.count, entriesAdded: added, daysKept: kept, journalAdded: journal.added,
        journalMerged: journal.merged)
    }
  }
}
