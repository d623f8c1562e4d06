import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The `habit_entries` rows of merged entries, written together: one statement sets the days
/// that have a status and one removes the days that have none, each reading the rows from one
/// JSON array, where a statement per day cost a first pull more than the rest of its merge.
///
/// A day is written only when its habit is the user's and materialised (a child may arrive
/// before its parent); a done day of a measurable habit holds the amount given, or the
/// target when an older client, which knows only "done", sent none; other days hold none.
struct SyncEntryRows {
  /// `[habit, day, status, note, amount in thousandths]` per day set.
  private var marked = "["
  /// `[habit, day]` per day cleared.
  private var cleared = "["

  /// `id` is an entry's checked id (`HABIT/DAY`).
  mutating func add(_ id: String, _ value: HabitEntryValue) {
    let slash = id.utf8.firstIndex(of: UInt8(ascii: "/"))!
    let habit = id[..<slash]
    let day = id[id.index(after: slash)...]
    guard let status = value.status else {
      if cleared.utf8.count > 1 { cleared += "," }
      cleared += "[\"\(habit)\",\"\(day)\"]"
      return
    }
    if marked.utf8.count > 1 { marked += "," }
    marked += "[\"\(habit)\",\"\(day)\",\"\(status.rawValue)\","
    if let note = value.note { SyncJSONText.append(note, to: &marked) } else { marked += "null" }
    marked += ","
    marked += value.amount.map { String($0.thousandths) } ?? "null"
    marked += "]"
  }

  func write(_ db: Database, user: UUID) throws {
    if marked.utf8.count > 1 {
      try db.cachedStatement(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note, amount)
          SELECT h.id, r.value ->> 1, r.value ->> 2, r.value ->> 3,
            CASE WHEN r.value ->> 2 = 'done' AND h.kind = 'measurable' THEN coalesce(r.value ->> 4, h.target) END
          FROM json_each(?) r CROSS JOIN habits h ON h.id = r.value ->> 0 AND h.user_id = ?
          WHERE true
          ON CONFLICT (habit_id, day) DO UPDATE SET
            status = excluded.status, note = excluded.note, amount = excluded.amount
          """
      ).execute(arguments: [marked + "]", user.storeText])
    }
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
