import Foundation
import GRDB
import TallyCore

/// What a Loop backup's schema version (`PRAGMA user_version`, 9 to 25 so far) holds, from
/// Loop's migrations (`uhabits-core/src/jvmMain/resources/migrations/NN.sql`): a column added
/// later is read with the value that migration gives existing rows.
///
/// - 11 added `reminder_days` (127, every day); 16 `Habits.type` (0, yes or no) and
///   `Repetitions.value` (2: every older row is a day done); 18 `target_type`, `target_value`
///   and `unit`; 25 `notes`.
/// - Before 14 `color` was an ARGB colour; 14 turned it into an index of a 13-colour palette,
///   which 21 spread over today's 20.
/// - 22 deleted repetitions of missing habits, without a timestamp or repeating a day, and
///   made (habit, timestamp) unique: older files may still hold such rows.
/// - 23 moved `description` to a new `question`: before it, `description` is what the person
///   wrote about the habit, and is kept as its description.
struct LoopSchema {
  let version: Int
  let habitColumns: Set<String>
  let repetitionColumns: Set<String>

  static let requiredHabitColumns = ["id", "name", "freq_num", "freq_den"]
  static let requiredRepetitionColumns = ["habit", "timestamp"]

  /// Each column a reader wants and what Loop's migration put in it for a file without it.
  static let habitDefaults: [(String, String)] = [
    ("id", "NULL"), ("name", "NULL"), ("archived", "0"), ("color", "0"), ("description", "''"), ("freq_num", "NULL"),
    ("freq_den", "NULL"), ("position", "0"), ("reminder_hour", "NULL"), ("reminder_min", "NULL"),
    ("reminder_days", "127"), ("type", "0"), ("target_type", "0"), ("target_value", "0"), ("unit", "''"),
  ]
  static let repetitionDefaults: [(String, String)] = [
    ("habit", "NULL"), ("timestamp", "NULL"), ("value", "2"), ("notes", "NULL"),
  ]

  init(_ db: Database) throws {
    version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    habitColumns = try SQLiteFile.require(Self.requiredHabitColumns, in: "Habits", of: db, app: LoopBackupReader.app)
    repetitionColumns = try SQLiteFile.require(
      Self.requiredRepetitionColumns, in: "Repetitions", of: db, app: LoopBackupReader.app)
    // A file claiming a new schema must have what that schema has: a half-written file is
    // refused rather than read with defaults.
    if version >= 16 {
      let missing = ["type"].filter { !habitColumns.contains($0) } + ["value"].filter { !repetitionColumns.contains($0) }
      guard missing.isEmpty else {
        throw ImportError(
          nil, "the file says it is Loop's schema \(version) but lacks the column \(missing.joined(separator: ", "))")
      }
    }
  }

  var habitSelection: String { Self.selection(Self.habitDefaults, present: habitColumns) }
  var repetitionSelection: String { "rowid, " + Self.selection(Self.repetitionDefaults, present: repetitionColumns) }

  static func selection(_ defaults: [(String, String)], present: Set<String>) -> String {
    defaults.map { column, value in present.contains(column) ? column : "\(value) AS \(column)" }
      .joined(separator: ", ")
  }

  /// Rows Loop's migration 22 would have deleted are left out (with a warning), not refused.
  var keepsStrayRepetitions: Bool { version < 22 }

  /// The colour a person saw: before schema 14 the stored ARGB value itself, then an index
  /// of Loop's palette (spread by migration 21 before schema 21); `nil` for an index Loop
  /// does not have.
  /// A file without a version (not written by Loop itself) is read by the value: an ARGB
  /// colour is negative (its alpha is FF), an index is small.
  func color(_ stored: Int) -> HexColor? {
    if version == 0 ? stored < 0 : version < 14 {
      let rgb = UInt32(truncatingIfNeeded: stored)
      return HexColor(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF))
    }
    return LoopMapping.color(index: version < 21 && version > 0 ? Self.spread[stored] ?? -1 : stored)
  }

  /// Migration 21: the 13-colour palette's index → the 20-colour palette's.
  static let spread: [Int: Int] = [
    0: 0, 1: 1, 2: 4, 3: 5, 4: 7, 5: 8, 6: 9, 7: 10, 8: 13, 9: 14, 10: 15, 11: 17, 12: 19,
  ]
}
