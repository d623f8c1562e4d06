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
      let insertNew = try db.cachedStatement(
        sql: "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)")
      var added = 0
      for item in additions.newHabits {
        let id = item.habit.id.storeText
        guard try !HabitRecord.exists(db, key: id) else {
          throw StoreError.conflict("a habit with id \(id) already exists")
        }
        try HabitRules.checkNameFree(item.habit.name, among: existing)
        try HabitRecord(item.habit, user: user).write(db, inserting: true)
        try sync.habit(item.habit)
        for entry in item.entries {
          try insertNew.execute(arguments: [id, entry.day.description, entry.status.rawValue, entry.note])
          try sync.entry(item.habit.id, entry.day, status: entry.status, note: entry.note)
        }
        added += item.entries.count
      }
      // A day that has an entry keeps it: DO NOTHING, and the change count says which.
      let insertMissing = try db.cachedStatement(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)
          ON CONFLICT (habit_id, day) DO NOTHING
          """)
      var kept: [UUID: [Day]] = [:]
      for id in additions.entries.keys.sorted(by: { $0.storeText < $1.storeText }) {
        _ = try db.ownedHabit(id, of: user)
        for entry in additions.entries[id] ?? [] {
          try insertMissing.execute(
            arguments: [id.storeText, entry.day.description, entry.status.rawValue, entry.note])
          if db.changesCount == 1 {
            added += 1
            try sync.entry(id, entry.day, status: entry.status, note: entry.note)
          } else {
            kept[id, default: []].append(entry.day)
          }
        }
      }
      return HistoryAdded(
        habitsCreated: additions.newHabits.count, entriesAdded: added, daysKept: kept.mapValues { $0.sorted() })
    }
  }
}
