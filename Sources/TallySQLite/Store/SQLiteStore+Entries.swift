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
    let (days, newNote) = try EntryNote.marking(days, note, for: mark)
    return try await write(recordingFor: user) { db, sync in
      let owner = try db.ownedHabit(habit, of: user).habit()
      guard let first = days.first, let last = days.last else { return [] }
      let habitText = habit.storeText
      if let status = mark.status {
        try StoreError.validating { () throws(ValidationError) in
          try owner.checkEntry(status: status, amount: mark.amount)
        }
      }
      // A range may be years of days: their months are written once each, not once a day.
      try db.pausingHabitMonths(of: habitText, days: days) {
        try Self.writeDays(db, days, of: habitText, status: mark.status, amount: mark.amount, note: note == nil ? nil : .some(newNote))
      }
      guard mark.status != nil else {
        for day in days { try sync.clearedDay(habit, day) }
        return []
      }
      let wanted = Set(days)
      let written = try Self.entries(db, habit: habitText, in: first...last)
        .filter { wanted.contains($0.day) }
      try sync.markedDays(habit)
      return written
    }
  }

  /// Sets `days` to `status` (each losing its stamp until the recorder stamps it, the ones
  /// already holding this value too: the user's latest act is a change, SPEC 11), keeping each
  /// day's note unless `note` is given; with no status, removes their rows.
  private static func writeDays(
    _ db: Database, _ days: [Day], of habit: String, status: EntryStatus?, amount: Amount?, note: String??
  ) throws {
    guard let status else {
      let statement = try db.cachedStatement(sql: "DELETE FROM habit_entries WHERE habit_id = ? AND day = ?")
      for day in days { try statement.execute(arguments: [habit, day.description]) }
      return
    }
    let sql = """
      INSERT INTO habit_entries (habit_id, day, status, amount, note) VALUES (?, ?, ?, ?, \(note == nil ? "NULL" : "?"))
      ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, amount = excluded.amount,
        \(note == nil ? "" : "note = excluded.note,") user_id = NULL, stamp = NULL, position = NULL
      """
    let statement = try db.cachedStatement(sql: sql)
    for day in days {
      var arguments: StatementArguments = [habit, day.description, status.rawValue, amount?.thousandths]
      if let note { arguments += [note] }
      try statement.execute(arguments: arguments)
    }
  }

  static func entries(_ db: Database, habit: String, in range: ClosedRange<Day>?) throws
    -> [HabitEntry]
  {
    let records =
      if let range {
        try EntryRecord.fetchAll(
          db.cachedStatement(sql: "SELECT * FROM habit_entries WHERE habit_id = ? AND day BETWEEN ? AND ? ORDER BY day"),
          arguments: [habit, range.lowerBound.description, range.upperBound.description])
      } else {
        try EntryRecord.fetchAll(
          db.cachedStatement(sql: "SELECT * FROM habit_entries WHERE habit_id = ? ORDER BY day"), arguments: [habit])
      }
    return try records.map { record throws(StoreError) in try record.entry() }
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
    try await readAside { db in try Self.entries(db, in: range, user: user) }
  }

  static func entries(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [UUID: [HabitEntry]]
  {
    try db.requireUser(user)
    // One habit at a time through one prepared statement, columns read by position: a list
    // page reads every entry of every habit, and per-row name lookups were most of its cost.
    let statement = try db.cachedStatement(
      sql: "SELECT day, status, note, amount FROM habit_entries WHERE habit_id = ? AND day BETWEEN ? AND ? ORDER BY day")
    let (first, last) = (range.lowerBound.description, range.upperBound.description)
    var result: [UUID: [HabitEntry]] = [:]
    for text in try String.fetchAll(db, sql: "SELECT id FROM habits WHERE user_id = ?", arguments: [user.storeText]) {
      let habit = try Stored.uuid(text, "habits.id")
      let rows = try Row.fetchCursor(statement, arguments: [text, first, last])
      var list: [HabitEntry] = []
      while let row = try rows.next() {
        let dayText: String = row[0]
        let statusText: String = row[1]
        guard let day = Day(dayText), let status = EntryStatus(rawValue: statusText) else {
          throw StoreError.corrupt("entry of habit \(text) on '\(dayText)' has status '\(statusText)'")
        }
        let amount: Int64? = row[3]
        list.append(HabitEntry(day: day, status: status, note: row[2], amount: amount.map(Amount.init(thousandths:))))
      }
      if !list.isEmpty { result[habit] = list }
    }
    return result
  }
}
