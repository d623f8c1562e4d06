import Foundation
import GRDB
import TallyCore

/// Reads Loop Habit Tracker's SQLite backup (`Habits` and `Repetitions`) through a read-only
/// connection: the file is never changed, not even its journal.
public enum LoopBackupReader {
  static let millisecondsPerDay: Int64 = 86_400_000

  public static func read(path: String, today: Day, progress: ProgressHandler? = nil) throws(ImportError)
    -> ImportedHistory
  {
    let queue: DatabaseQueue
    do {
      var configuration = Configuration()
      configuration.readonly = true
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw ImportError(nil, "the file cannot be opened as an SQLite database (\(reason(error)))")
    }
    do {
      return try queue.read { db in try read(db, today: today, progress: progress) }
    } catch let error as ImportError {
      throw error
    } catch {
      throw ImportError(nil, "the file is not a readable Loop Habit Tracker backup (\(reason(error)))")
    }
  }

  static func reason(_ error: any Error) -> String {
    (error as? DatabaseError)?.message ?? String(describing: error)
  }

  struct HabitRow {
    var id: Int64
    var name: String
    var archived: Bool
    var color: Int
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

  static let habitColumns = [
    "id", "name", "archived", "color", "description", "freq_num", "freq_den", "position", "reminder_hour",
    "reminder_min", "reminder_days", "type", "target_type", "target_value", "unit",
  ]

  static func read(_ db: Database, today: Day, progress: ProgressHandler?) throws -> ImportedHistory {
    for (table, columns) in [("Habits", habitColumns), ("Repetitions", ["habit", "timestamp", "value", "notes"])] {
      guard try db.tableExists(table) else {
        throw ImportError(nil, "the file has no table \(table); it is not a Loop Habit Tracker backup")
      }
      let present = Set(try db.columns(in: table).map { $0.name.lowercased() })
      let missing = columns.filter { !present.contains($0) }
      guard missing.isEmpty else {
        throw ImportError(
          "the table \(table)", "the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing; is it a Loop backup from before version 2?")
      }
    }
    var habits: [HabitRow] = []
    let rows = try Row.fetchCursor(
      db, sql: "SELECT \(habitColumns.joined(separator: ", ")) FROM Habits ORDER BY position, id")
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
          id: id, name: name, archived: (row.value("archived") as Int? ?? 0) != 0, color: row.value("color") as Int? ?? 0,
          description: row.value("description") as String? ?? "", numerator: numerator, denominator: denominator,
          position: row.value("position") as Int? ?? 0, reminderHour: row.value("reminder_hour"),
          reminderMinute: row.value("reminder_min"), reminderDays: row.value("reminder_days") as Int? ?? 127, numeric: numeric,
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
      db, sql: "SELECT rowid, habit, timestamp, value, notes FROM Repetitions ORDER BY habit, timestamp")
    var done = 0
    while let row = try repetitions.next() {
      let location = "the repetition with id \(row[0] as Int64) in the table Repetitions"
      guard let habitID = row.value("habit") as Int64?, let index = byID[habitID] else {
        throw ImportError(location, "its habit \(describe(row["habit"])) is not in the table Habits")
      }
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
    let color = LoopMapping.color(index: row.color)
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

/// A stored value as an error message shows it: numbers as they are, text quoted.
private func describe(_ value: DatabaseValue) -> String {
  switch value.storage {
  case .null: "empty"
  case .int64(let number): "\(number)"
  case .double(let number): "\(number)"
  case .string(let text): "'\(text)'"
  case .blob(let data): "a blob of \(data.count) bytes"
  }
}

extension Row {
  /// The column's value when it converts to `T` exactly, else `nil`: a malformed file gives
  /// an error naming the row, never a crash.
  fileprivate func value<T: DatabaseValueConvertible>(_ column: String) -> T? {
    T.fromDatabaseValue(self[column] as DatabaseValue)
  }
}
