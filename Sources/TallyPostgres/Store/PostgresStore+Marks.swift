import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

extension PostgresStore {
  /// Marks `days` in two statements and no transaction: what the mark decides from is read
  /// without a lock (`tally_read_marks`), and what it decided is written, with the user
  /// locked only for that one statement, if the user's head has not moved since
  /// (`tally_write_marks`). A user's next mark through this instance waits for this one
  /// (``PostgresAppDatabase/committingEach(turnOf:_:)``), but not for round trips made
  /// under the lock. Nil, with nothing written, when the head moved, when the user has no
  /// head yet or changes queued for a remote, and when the read finds anything to refuse (no
  /// such user or habit, a mark the habit does not take): the caller then marks under the
  /// lock, which decides from what the database holds once the lock is granted.
  func markUnlocked(
    _ days: [Day], of habit: UUID, user: UUID, status: EntryStatus, amount: Amount?, note: String?,
    keepingNotes: Bool, now: Date
  ) async throws -> [HabitEntry]? {
    do {
      return try await database.committingEach(turnOf: user) { connection in
        let dayTexts = days.map(\.description)
        let rows = try await connection.kept(
          PostgresKeptStatements.ReadMarks(
            habit: habit, user: user, days: dayTexts, ids: days.map { SyncID.entry(habit, $0) }))
        guard
          let plan = try LoneMark(
            rows, user: user, habit: habit, days: days, dayTexts: dayTexts, status: status, amount: amount,
            note: note, keepingNotes: keepingNotes, now: now)
        else { return nil }
        let written = try await connection.kept(plan.write)
        guard let moved = written.first ?? nil else { return nil }
        PendingChanges.current?.record(user, moved)
        return plan.entries
      }
    } catch {
      throw Self.storeError(error)
    }
  }
}

/// What a lone mark writes, decided from what `tally_read_marks` read; kept out of the
/// asynchronous body that reads and writes, which the release build's optimizer crashed on
/// when it held this too (swift-frontend, splitting the coroutine).
private struct LoneMark {
  /// The days as the mark leaves them.
  let entries: [HabitEntry]
  /// Writes them if the user's head is still where it was read.
  let write: PostgresKeptStatements.WriteMarks

  /// Nil when the mark must be made under the lock instead (see ``PostgresStore/markUnlocked``).
  init?(
    _ rows: [PostgresRandomAccessRow], user: UUID, habit: UUID, days: [Day], dayTexts: [String],
    status: EntryStatus, amount: Amount?, note: String?, keepingNotes: Bool, now: Date
  ) throws {
    guard let first = rows.first, let position = try first["head_position"].decode(Int64?.self),
      try first["id"].decode(UUID?.self) != nil,
      (try? PostgresRows.habit(first).checkEntry(status: status, amount: amount)) != nil
    else { return nil }
    let head = try SyncHead(markRow: first)
    guard !head.isReplica else { return nil }
    var kept: [Day: String?] = [:]
    for row in rows {
      if try row["entry_day"].decode(String?.self) != nil {
        let entry = try PostgresRows.entry(row, prefix: "entry_")
        kept[entry.day] = entry.note
      }
    }
    // As the upsert writes them: a day that has an entry keeps its note when asked to.
    let entries = days.sorted().map { day in
      HabitEntry(day: day, status: status, note: keepingNotes ? (kept[day] ?? note) : note, amount: amount)
    }
    let stamp = head.nextStamp(now: now).stamp
    let entities = SyncRecording.merged(
      entries.map { SyncRecord.entry(habit, $0).setByUser }, held: try PostgresConnection.heldFeedRows(rows),
      stamp: stamp
    ).entities
    self.entries = entries
    write = PostgresKeptStatements.WriteMarks(
      user: user, readPosition: position, readStamp: try first["head_stamp"].decode(String?.self), habit: habit,
      status: status.rawValue, note: note, amount: amount?.thousandths, keepingNotes: keepingNotes, days: dayTexts,
      latest: entities.isEmpty ? nil : stamp.text, ids: entities.map(\.0.id),
      fields: entities.map { SyncJSON.text($0.1.fields) }, stamps: entities.map { SyncJSON.stampsText($0.1.stamps) },
      deleted: entities.map { $0.1.deleted?.text ?? "" })
  }
}
