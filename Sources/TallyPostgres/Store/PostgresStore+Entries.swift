import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Entries

extension PostgresStore {
  @discardableResult
  public func setDays(
    _ days: [Day], of habit: UUID, to mark: DayMark, note: String?, for user: UUID
  ) async throws -> [HabitEntry] {
    let (days, newNote) = try EntryNote.marking(days, note, for: mark)
    let dayTexts = days.map(\.description)
    return try await write(recordingFor: user) { connection, sync in
      let owner = try await connection.ownedHabit(habit, of: user)
      guard !days.isEmpty else { return [] }
      guard let status = mark.status else {
        try await connection.run(
          "DELETE FROM habit_entries WHERE habit_id = \(habit) AND day = ANY(\(dayTexts)::text[])")
        try await sync.record(days.map { SyncRecord.entry(habit, $0, status: nil, note: nil).setByUser })
        return []
      }
      try StoreError.validating { () throws(ValidationError) in
        try owner.checkEntry(status: status, amount: mark.amount)
      }
      let keepsNote = note == nil
      let written = try await connection.rows(
        """
        INSERT INTO habit_entries (habit_id, day, status, note, amount)
        SELECT \(habit), day, \(status.rawValue), \(newNote), \(mark.amount?.thousandths)
        FROM unnest(\(dayTexts)::text[]) AS day
        ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, amount = excluded.amount,
          note = CASE WHEN \(keepsNote) THEN habit_entries.note ELSE excluded.note END
        RETURNING day, status, note, amount
        """
      ).map(PostgresRows.entry).sorted { $0.day < $1.day }
      try await sync.record(written.map { SyncRecord.entry(habit, $0).setByUser })
      return written
    }
  }

  public func entries(of habit: UUID, in range: ClosedRange<Day>?, for user: UUID) async throws -> [HabitEntry] {
    try await read { connection in
      _ = try await connection.ownedHabit(habit, of: user)
      let (first, last) = (range?.lowerBound.description ?? "", range?.upperBound.description ?? "9999-99-99")
      return try await connection.rows(
        """
        SELECT day, status, note, amount FROM habit_entries
        WHERE habit_id = \(habit) AND day BETWEEN \(first) AND \(last) ORDER BY day
        """
      ).map(PostgresRows.entry)
    }
  }

  public func entries(in range: ClosedRange<Day>, for user: UUID) async throws -> [UUID: [HabitEntry]] {
    try await read { connection in try await connection.entries(in: range, user: user) }
  }
}

extension PostgresConnection {
  /// Every entry in `range` of the user's habits, one query over the user's habits.
  func entries(in range: ClosedRange<Day>, user: UUID) async throws -> [UUID: [HabitEntry]] {
    try await requireUser(user)
    var result: [UUID: [HabitEntry]] = [:]
    let rows = try await query(
      """
      SELECT e.habit_id, e.day, e.status, e.note, e.amount FROM habit_entries e JOIN habits h ON h.id = e.habit_id
      WHERE h.user_id = \(user) AND e.day BETWEEN \(range.lowerBound.description) AND \(range.upperBound.description)
      ORDER BY e.habit_id, e.day
      """, logger: PostgresAppDatabase.quiet)
    for try await (habit, dayText, statusText, note, amount) in rows.decode((UUID, String, String, String?, Int64?).self) {
      guard let day = Day(dayText), let status = EntryStatus(rawValue: statusText) else {
        throw StoreError.corrupt("entry of habit \(habit.storeText) on '\(dayText)' has status '\(statusText)'")
      }
      result[habit, default: []].append(
        HabitEntry(day: day, status: status, note: note, amount: amount.map(Amount.init(thousandths:))))
    }
    return result
  }
}
