import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - History

extension SQLiteStore {
  @discardableResult
  public func addHistory(_ additions: HistoryAdditions, for user: UUID) async throws -> HistoryAdded {
    let additions = try additions.checked()
    return try await write(recordingFor: user) { db, sync in
      let existing = try Self.habits(db, user: user, includingArchived: true)
      var added = 0
      for item in additions.newHabits {
        let id = item.habit.id.storeText
        guard try !HabitRecord.exists(db, key: id) else {
          throw StoreError.conflict("a habit with id \(id) already exists")
        }
        try HabitRules.checkNameFree(item.habit.name, among: existing)
        try HabitRecord(item.habit, user: user).write(db, inserting: true)
        try sync.record(.habit(item.habit))
        try db.insertNewDays(item.entries, of: item.habit.id)
        try sync.markedDays(item.habit.id)
        added += item.entries.count
      }
      // A day that has an entry keeps it: DO NOTHING, and the change count says which.
      let insertMissing = try db.cachedStatement(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note, amount) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (habit_id, day) DO NOTHING
          """)
      var kept: [UUID: [Day]] = [:]
      for id in additions.entries.keys.sorted(by: { $0.storeText < $1.storeText }) {
        let habit = try db.ownedHabit(id, of: user).habit()
        for entry in additions.entries[id] ?? [] {
          _ = try EntryNote.checked(entry, of: habit)
          try insertMissing.execute(arguments: EntryRecord(habit: id, entry: entry).arguments)
          if db.changesCount == 1 {
            added += 1
          } else {
            kept[id, default: []].append(entry.day)
          }
        }
        try sync.markedDays(id)
      }
      var journal = (added: 0, merged: 0)
      for day in additions.journal.keys.sorted() {
        let stored = try JournalEntryRecord.fetchOne(
          db, sql: "SELECT * FROM journal_entries WHERE user_id = ? AND day = ?",
          arguments: [user.storeText, day.description])
        let outcome = try JournalMerge.merged(stored: stored?.text, adding: additions.journal[day] ?? [], day: day)
        guard let entry = outcome.entry else { continue }
        if case .added = outcome { journal.added += 1 } else { journal.merged += 1 }
        try JournalEntryRecord(entry, user: user).save(db)
        try sync.record(.journal(day, text: entry.text))
      }
      return HistoryAdded(
        habitsCreated: additions.newHabits.count, entriesAdded: added, daysKept: kept.mapValues { $0.sorted() },
        journalAdded: journal.added, journalMerged: journal.merged)
    }
  }
}
