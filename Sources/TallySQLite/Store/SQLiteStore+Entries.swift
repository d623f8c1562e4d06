import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Entries

extension SQLiteStore {
  @discardableResult
  public func setDays(
    _ days: [Day], of habit: UUID, to mark: DayMark, note: String?, for user: UUID
  ) async throws -> [HabitEntry] {
    let days = Set(days).sorted()
    // A given note is the same for every day, so it is checked once, before the transaction.
    let newNote = try StoreError.validating { () throws(ValidationError) in
      try EntryNote.resolve(note, keeping: nil)
    }
    return try await write(recordingFor: user) { db, sync in
      _ = try db.ownedHabit(habit, of: user)
      guard let first = days.first, let last = days.last else { return [] }
      let habitText = habit.storeText
      if let status = mark.status {
        let sql =
          note == nil
          ? """
            INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, NULL)
            ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status
            """
          : """
            INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)
            ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, note = excluded.note
            """
        let statement = try db.cachedStatement(sql: sql)
        for day in days {
          var arguments: StatementArguments = [habitText, day.description, status.rawValue]
          if note != nil { arguments += [newNote] }
          try statement.execute(arguments: arguments)
        }
      } else {
        let statement = try db.cachedStatement(
          sql: "DELETE FROM habit_entries WHERE habit_id = ? AND day = ?")
        for day in days {
          try statement.execute(arguments: [habitText, day.description])
          try sync.entry(habit, day, status: nil, note: nil)
        }
        return []
      }
      let wanted = Set(days)
      let written = try Self.entries(db, habit: habitText, in: first...last)
        .filter { wanted.contains($0.day) }
      for entry in written { try sync.entry(habit, entry.day, status: entry.status, note: entry.note) }
      return written
    }
  }

  static func entries(_ db: Database, habit: String, in range: ClosedRange<Day>?) throws
    -> [HabitEntry]
  {
    var request = EntryRecord.filter(EntryRecord.Columns.habitID == habit)
    if let range {
      request = request.filter(
        EntryRecord.Columns.day >= range.lowerBound.description
          && EntryRecord.Columns.day <= range.upperBound.description)
    }
    return try request.order(EntryRecord.Columns.day).fetchAll(db)
      .map { record throws(StoreError) in try record.entry() }
  }

  public func entries(of habit: UUID, in range: ClosedRange<Day>?, for user: UUID) async throws
    -> [HabitEntry]
  {
    try await read { db in
      _ = try db.ownedHabit(habit, of: user)
      return try Self.entries(db, habit: habit.storeText, in: range)
    }
  }

  public func entries(in range: ClosedRange<Day>, for user: UUID) async throws
    -> [UUID: [HabitEntry]]
  {
    try await read { db in try Self.entries(db, in: range, user: user) }
  }

  static func entries(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [UUID: [HabitEntry]]
  {
    try db.requireUser(user)
    let records = try EntryRecord.fetchAll(
      db,
      sql: """
        SELECT e.* FROM habit_entries e JOIN habits h ON h.id = e.habit_id
        WHERE h.user_id = ? AND e.day BETWEEN ? AND ?
        ORDER BY e.habit_id, e.day
        """,
      arguments: [user.storeText, range.lowerBound.description, range.upperBound.description])
    var result: [UUID: [HabitEntry]] = [:]
    // Rows come ordered by habit, so each habit's id is parsed once, not once per entry.
    var current: (text: String, id: UUID)?
    for record in records {
      if current?.text != record.habitID {
        current = (record.habitID, try Stored.uuid(record.habitID, "habit_entries.habit_id"))
      }
      result[current!.id, default: []].append(try record.entry())
    }
    return result
  }
}
