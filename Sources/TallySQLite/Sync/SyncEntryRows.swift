import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The `habit_entries` rows of merged entries, written together: one statement sets the days
/// that have a status, each with its stamp and feed position (the row is the entry's place in
/// the feed), and one removes the days that have none, each reading its rows from one JSON
/// array, where a statement per day cost a first pull more than the rest of its merge.
///
/// Only days of habits the user has are given here (a child that arrives before its parent
/// stays in `sync_entities`); a done day of a measurable habit holds the amount given, or the
/// target when an older client, which knows only "done", sent none; other days hold none.
struct SyncEntryRows {
  /// `[habit, day, status, note, amount in thousandths, stamp, position]` per day set.
  private var marked = "["
  /// `[habit, day]` per day cleared.
  private var cleared = "["
  /// The days set and cleared, each habit's first and last: the months written again after.
  private var spans = HabitDaySpans()

  var isEmpty: Bool { marked.utf8.count == 1 && cleared.utf8.count == 1 }

  /// Sets the day `id` names (an entry's checked id, `HABIT/DAY`) to `value`, or clears it
  /// when `value` has no status.
  mutating func add(_ id: String, _ value: HabitEntryValue, stamp: HybridStamp, position: Int64) {
    guard let status = value.status else { return clear(id) }
    let (habit, day) = SyncID.split(id)!
    spans.add(habit: habit, day: day)
    if marked.utf8.count > 1 { marked += "," }
    marked += "[\"\(habit)\",\"\(day)\",\"\(status.rawValue)\","
    if let note = value.note { SyncJSONText.append(note, to: &marked) } else { marked += "null" }
    marked += ","
    marked += value.amount.map { String($0.thousandths) } ?? "null"
    marked += ",\"\(stamp.text)\",\(position)]"
  }

  /// The day `id` names has no status (or none it can keep): its row goes.
  mutating func clear(_ id: String) {
    let (habit, day) = SyncID.split(id)!
    spans.add(habit: habit, day: day)
    if cleared.utf8.count > 1 { cleared += "," }
    cleared += "[\"\(habit)\",\"\(day)\"]"
  }

  /// Writes the days set and removes the days cleared, the months of both written once after.
  func write(_ db: Database, user: UUID) throws {
    guard !isEmpty else { return }
    try db.pausingHabitMonths(touching: spans) {
      if marked.utf8.count > 1 { try Self.markPaused(db, rows: marked + "]", user: user, first: 0) }
      if cleared.utf8.count > 1 {
        try db.cachedStatement(
          sql: """
            DELETE FROM habit_entries WHERE (habit_id, day) IN (
              SELECT r.value ->> 0, r.value ->> 1 FROM json_each(?) r)
            """
        ).execute(arguments: [cleared + "]"])
      }
    }
  }

  /// Writes the days `rows` (JSON `[[habit, day, status, note, amount, stamp, position?], …]`)
  /// sets (`spans` their habits' first and last days); a row without a position takes `first`
  /// plus its index (``SyncEntryRun``'s rows).
  /// A day already held keeps its value unless the row's stamp is later: SPEC 11's merge of
  /// a whole entry, which stamps compare as text. The days' months are written once, after.
  /// Returns how many rows it wrote.
  @discardableResult
  static func mark(_ db: Database, rows: String, spans: HabitDaySpans, user: UUID, first: Int64 = 0) throws -> Int {
    try db.pausingHabitMonths(touching: spans) {
      try markPaused(db, rows: rows, user: user, first: first)
      return db.changesCount
    }
  }

  private static func markPaused(_ db: Database, rows: String, user: UUID, first: Int64) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO habit_entries (habit_id, day, status, note, amount, user_id, stamp, position)
        SELECT h.id, r.value ->> 1, r.value ->> 2, r.value ->> 3,
          CASE WHEN r.value ->> 2 = 'done' AND h.kind = 'measurable' THEN coalesce(r.value ->> 4, h.target) END,
          h.user_id, r.value ->> 5, coalesce(r.value ->> 6, ?3 + r.key)
        FROM json_each(?1) r CROSS JOIN habits h ON h.id = r.value ->> 0 AND h.user_id = ?2
        WHERE true
        ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, note = excluded.note,
          amount = excluded.amount, user_id = excluded.user_id, stamp = excluded.stamp, position = excluded.position
        WHERE excluded.stamp > habit_entries.stamp
        """
    ).execute(arguments: [rows, user.storeText, first])
  }
}

extension Database {
  /// What the feed holds of a marked day: its `habit_entries` row, one value under one stamp.
  /// A row written and not yet recorded (no stamp) is not in the feed yet.
  func markedDayEntity(_ id: String, user: UUID) throws -> SyncEntity? {
    guard let (habit, day) = SyncID.split(id) else { return nil }
    let row = try Row.fetchOne(
      cachedStatement(
        sql: """
          SELECT status, note, amount, stamp FROM habit_entries
          WHERE habit_id = ? AND day = ? AND user_id = ? AND stamp IS NOT NULL
          """),
      arguments: [String(habit), String(day), user.storeText])
    return try row.map(Self.markedDayEntity)
  }

  /// A day's row (`status, note, amount, stamp`) as the entity its feed state is.
  static func markedDayEntity(_ row: Row) throws -> SyncEntity {
    let stampText: String = row["stamp"]
    guard let stamp = HybridStamp(stampText) else { throw SyncJSONError(text: stampText) }
    let fields = try markedDayFields(row)
    return SyncEntity(fields: fields, stamps: fields.mapValues { _ in stamp })
  }

  /// A day's row (`status, note, amount`) as an entry's fields.
  static func markedDayFields(_ row: Row) throws -> [String: SyncValue] {
    let status: String = row["status"]
    guard let parsed = EntryStatus(rawValue: status) else {
      throw StoreError.corrupt("habit_entries.status '\(status)' is not a status")
    }
    return SyncFields.entry(
      status: parsed, note: row["note"], amount: (row["amount"] as Int64?).map(Amount.init(thousandths:)))
  }
}
