import Foundation
import GRDB
import TallyCore

/// Reads Loop Habit Tracker's SQLite backup (`Habits` and `Repetitions`) of every schema Loop
/// has written since version 9 (`PRAGMA user_version`): columns added later are read as
/// Loop's own migrations fill them (``LoopSchema``).
public enum LoopBackupReader {
  static let millisecondsPerDay: Int64 = 86_400_000
  static let app = "Loop Habit Tracker"

  public static func read(path: String, today: Day, progress: ProgressHandler? = nil) throws(ImportError)
    -> ImportedHistory
  {
    try SQLiteFile.read(path: path, app: app) { db in try read(db, today: today, progress: progress) }
  }

  struct HabitRow {
    var id: Int64
    var name: String
    var archived: Bool
    var color: Int
    /// `nil` when Loop has no such colour.
    var shownColor: HexColor?
    var description: String
    var numerator: Int
    var denominator: Int
    var position: Int
    var reminderHour: Int?
    var reminderMinute: Int?
    var reminderDays: Int
    var numeric: Bool
    var target: LoopMapping.Target?
  }

  static func read(_ db: Database, today: Day, progress: ProgressHandler?) throws -> ImportedHistory {
    let schema = try LoopSchema(db)
    var habits: [HabitRow] = []
    let rows = try Row.fetchCursor(db, sql: "SELECT \(schema.habitSelection) FROM Habits ORDER BY position, id")
    while let row = try rows.next() {
      let id: Int64 = row["id"]
      let location = "the habit with id \(id) in the table Habits"
      guard let name = row.value("name") as String? else { throw ImportError(location, "it has no name") }
      guard let numerator = row.value("freq_num") as Int?, let denominator = row.value("freq_den") as Int?,
        numerator > 0, denominator > 0, numerator <= denominator
      else {
        throw ImportError(
          location, "its frequency \(describe(row["freq_num"])) in \(describe(row["freq_den"])) days is not one Loop writes")
      }
      let type = row.value("type") as Int? ?? 0
      guard type == 0 || type == 1 else {
        throw ImportError(location, "its type is \(type); Loop writes 0 (yes or no) or 1 (numeric)")
      }
      let numeric = type == 1
      habits.append(
        HabitRow(
          id: id, name: name, archived: (row.value("archived") as Int? ?? 0) != 0,
          color: row.value("color") as Int? ?? 0, shownColor: schema.color(row.value("color") as Int? ?? 0),
          description: row.value("description") as String? ?? "",
          numerator: numerator, denominator: denominator, position: row.value("position") as Int? ?? 0,
          reminderHour: row.value("reminder_hour"), reminderMinute: row.value("reminder_min"),
          reminderDays: row.value("reminder_days") as Int? ?? 127, numeric: numeric,
          target: numeric
            ? LoopMapping.Target(
              value: row.value("target_value") as Double? ?? 0, atMost: (row.value("target_type") as Int? ?? 0) == 1,
              unit: row.value("unit") as String? ?? "")
            : nil))
    }
    let byID = Dictionary(uniqueKeysWithValues: habits.enumerated().map { ($1.id, $0) })
    var marks = Array(repeating: [(day: Day, mark: LoopMapping.Checkmark, note: String)](), count: habits.count)
    let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Repetitions") ?? 0
    let repetitions = try Row.fetchCursor(
      db, sql: "SELECT \(schema.repetitionSelection) FROM Repetitions ORDER BY habit, timestamp, rowid")
    var done = 0
    var cleared = 0
    var last: (habit: Int64, timestamp: Int64)?
    while let row = try repetitions.next() {
      let location = "the repetition with id \(row[0] as Int64) in the table Repetitions"
      let habitID = row.value("habit") as Int64?
      let index = habitID.flatMap { byID[$0] }
      let stamp = row.value("timestamp") as Int64?
      // Loop's migration 22 deleted such rows from older files: they never showed in Loop.
      if schema.keepsStrayRepetitions, index == nil || stamp == nil || (last.map { $0 == (habitID!, stamp!) } ?? false) {
        cleared += 1
        continue
      }
      guard let habitID, let index else {
        throw ImportError(location, "its habit \(describe(row["habit"])) is not in the table Habits")
      }
      last = stamp.map { (habitID, $0) }
      guard let timestamp = row.value("timestamp") as Int64?, timestamp % millisecondsPerDay == 0 else {
        throw ImportError(
          location,
          "its timestamp \(describe(row["timestamp"])) is not a day (Loop writes milliseconds at 00:00 UTC)")
      }
      let day = Day(ordinal: Int(timestamp / millisecondsPerDay))
      guard day.year >= 1900, day.year <= 9999 else {
        throw ImportError(location, "its day \(day) is not a plausible date")
      }
      guard let value = row.value("value") as Int?,
        let mark = LoopMapping.checkmark(value: value, numeric: habits[index].numeric)
      else {
        throw ImportError(
          location,
          "its value \(describe(row["value"])) is not one Loop writes (2 done, 1 automatic, 0 not done, 3 skipped, -1 unknown)")
      }
      marks[index].append((day, mark, row.value("notes") as String? ?? ""))
      done += 1
      if done % 10_000 == 0 { progress?(ImportProgress(stage: "Reading repetitions", done: done, total: total)) }
    }
    progress?(ImportProgress(stage: "Reading repetitions", done: done, total: total))
    var warnings: [ImportWarning] = []
    if cleared > 0 {
      warnings.append(
        ImportWarning(
          habit: nil,
          "\(LoopMapping.count(cleared, "repetition")) of a missing habit, without a day or repeating a day were left out, as Loop itself does since its schema 22"))
    }
    let imported = habits.enumerated().map { index, row in
      map(row, marks: marks[index], today: today, warnings: &warnings)
    }
    return ImportedHistory(format: .loopSQLite, habits: imported, warnings: warnings)
  }

  static func map(
    _ row: HabitRow, marks: [(day: Day, mark: LoopMapping.Checkmark, note: String)], today: Day,
    warnings: inout [ImportWarning]
  ) -> ImportedHabit {
    let fields = LoopMapping.habitFields(
      numerator: row.numerator, denominator: row.denominator, target: row.target, description: row.description,
      habit: row.name)
    warnings += fields.warnings
    let color = row.shownColor
    if color == nil {
      warnings.append(ImportWarning(habit: row.name, "its colour \(row.color) is not in Loop's palette; it got Tally's default"))
    }
    let (reminder, reminderWarning) = LoopMapping.reminder(
      hour: row.reminderHour, minute: row.reminderMinute, days: row.reminderDays, habit: row.name)
    if let reminderWarning { warnings.append(reminderWarning) }
    let (entries, entryWarnings) = LoopMapping.entries(marks, habit: row.name, today: today)
    warnings += entryWarnings
    return ImportedHabit(
      name: row.name, color: color ?? Habit.defaultColor, frequency: fields.frequency, reminder: reminder,
      archived: row.archived, createdDay: LoopMapping.firstDay(marks, today: today), entries: entries,
      measure: fields.measure, description: fields.description)
  }
}
