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
    guard let status = mark.status, !days.isEmpty else {
      let dayTexts = days.map(\.description)
      return try await write(recordingFor: user) { connection, sync in
        _ = try await connection.ownedHabit(habit, of: user)
        guard !days.isEmpty else { return [] }
        try await connection.run(
          "DELETE FROM habit_entries WHERE habit_id = \(habit) AND day = ANY(\(dayTexts)::text[])")
        try await sync.record(days.map { SyncRecord.entry(habit, $0, status: nil, note: nil).setByUser })
        return []
      }
    }
    let now = clock()
    // A burst of the user's writes is quicker under the lock, made together: there the next
    // write has begun and asked for it when the last commits, where an unlocked mark waits for
    // the last's end, and the marks that waited meanwhile share one commit.
    if database.writeTurns.inLine(for: user) == 0,
      let entries = try await markUnlocked(
        days, of: habit, user: user, status: status, amount: mark.amount, note: newNote, keepingNotes: note == nil,
        now: now)
    {
      return entries
    }
    return try await write(together: user) { connection in
      let marked = try await connection.markDays(
        days, of: habit, user: user, status: status, amount: mark.amount, note: newNote, keepingNotes: note == nil)
      // A mark the habit does not take is refused here, and the transaction with it.
      try StoreError.validating { () throws(ValidationError) in
        try marked.habit.checkEntry(status: status, amount: mark.amount)
      }
      let sync = PostgresSyncRecorder(connection, user: user, now: now, head: marked.head)
      try await sync.record(marked.entries.map { SyncRecord.entry(habit, $0).setByUser }, held: marked.held)
      return marked.entries
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
      ).map { try PostgresRows.entry($0) }
    }
  }

  public func entries(in range: ClosedRange<Day>, for user: UUID) async throws -> [UUID: [HabitEntry]] {
    try await read { connection in try await connection.entries(in: range, user: user) }
  }
}

extension PostgresConnection {
  /// Locks the user and writes `days` of their habit with one status, in one statement with
  /// what a mark reads besides (the user's feed head, the habit, and the feed's entities of
  /// the days), since a user's writes take turns and each round trip is part of every turn.
  /// A user who does not exist, or a habit that is not the user's, is
  /// ``StoreError/notFound(_:)``, with nothing written. Everything read is what the database
  /// held once the lock was taken, so nothing is stale (`tally_mark_days`).
  func markDays(
    _ days: [Day], of habit: UUID, user: UUID, status: EntryStatus, amount: Amount?, note: String?,
    keepingNotes: Bool
  ) async throws -> (head: SyncHead, habit: Habit, entries: [HabitEntry], held: [String: SyncEntity]) {
    let rows = try await kept(
      PostgresKeptStatements.MarkDays(
        habit: habit, user: user, status: status.rawValue, note: note, amount: amount?.thousandths,
        keepingNotes: keepingNotes, days: days.map(\.description), ids: days.map { SyncID.entry(habit, $0) }))
    guard let first = rows.first else { throw StoreError.notFound(.user(user)) }
    let head = try SyncHead(markRow: first)
    guard try first["id"].decode(UUID?.self) != nil else { throw StoreError.notFound(.habit(habit)) }
    let entries = try rows.map { try PostgresRows.entry($0, prefix: "entry_") }.sorted { $0.day < $1.day }
    return (head, try PostgresRows.habit(first), entries, try Self.heldFeedRows(rows))
  }

  /// The feed's rows of a mark's days, by id, from rows of ``PostgresKeptStatements/markColumns``.
  static func heldFeedRows(_ rows: [PostgresRandomAccessRow]) throws -> [String: SyncEntity] {
    var held: [String: SyncEntity] = [:]
    for row in rows {
      if let id = try row["feed_id"].decode(String?.self) { held[id] = try syncEntity(row, prefix: "feed_") }
    }
    return held
  }

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
