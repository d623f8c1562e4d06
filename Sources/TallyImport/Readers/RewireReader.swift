import Foundation
import GRDB
import TallyCore

/// Reads Rewire's backup database as Loop's own Rewire importer does: `Habits` (name,
/// description, schedule) and `CHECKINS` (`date` as `yyyymmdd`, `type`). A check-in of type 2
/// is a day done, with its note; Rewire documents no other type, so those check-ins are left
/// out and counted in a warning (a note on one is kept, on a noted day). Schedules: 0 is chosen
/// weekdays (`active_days`, 0 Sunday to 6 Saturday, as Loop's importer reads Rewire's reminder
/// days); 1 is `days` per week, month or year (`period` 0, 1, 2); 2 is once in
/// `repeating_count` days. A reminder becomes a daily one at its time.
public enum RewireReader {
  static let app = "Rewire"

  public static func read(path: String, today: Day) throws(ImportError) -> ImportedHistory {
    try SQLiteFile.read(path: path, app: app) { db in try read(db, today: today) }
  }

  static func read(_ db: Database, today: Day) throws -> ImportedHistory {
    // CHECKINS first: Loop's backup has a Habits table too, but no check-ins.
    let checkinColumns = try SQLiteFile.require(["habit_id", "date", "type"], in: "CHECKINS", of: db, app: app)
    let habitColumns = try SQLiteFile.require(["_id", "name"], in: "Habits", of: db, app: app)
    func column(_ name: String, _ fallback: String) -> String { habitColumns.contains(name) ? name : "\(fallback) AS \(name)" }
    let selection = [
      "_id", "name", column("description", "''"), column("schedule", "0"), column("active_days", "'0,1,2,3,4,5,6'"),
      column("repeating_count", "1"), column("days", "1"), column("period", "0"), column("archived", "0"),
    ].joined(separator: ", ")
    var builder = HabitBuilder(today: today)
    var warnings: [ImportWarning] = []
    var ids: [Int64: Int] = [:]
    let rows = try Row.fetchCursor(db, sql: "SELECT \(selection) FROM Habits ORDER BY _id")
    while let row = try rows.next() {
      let id: Int64 = row["_id"]
      let location = "the habit with _id \(id) in the table Habits"
      guard let name = row.value("name") as String?, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ImportError(location, "it has no name")
      }
      let frequency = try schedule(row, location: location, habit: name, warnings: &warnings)
      let reminder = try reminder(db, habit: id, name: name, warnings: &warnings)
      let description = (row.value("description") as String?).flatMap(HabitBullReader.descriptionText)
      ids[id] = builder.habit("\(id)") {
        ImportedHabit(
          name: name, frequency: frequency, reminder: reminder, archived: (row.value("archived") as Int? ?? 0) != 0,
          description: description)
      }
    }
    var otherTypes: [Int: Int] = [:]
    let noteColumn = checkinColumns.contains("note") ? "note" : "NULL AS note"
    let checkins = try Row.fetchCursor(
      db, sql: "SELECT rowid, habit_id, date, type, \(noteColumn) FROM CHECKINS ORDER BY habit_id, date")
    while let row = try checkins.next() {
      let location = "the check-in with id \(row[0] as Int64) in the table CHECKINS"
      guard let habitID = row.value("habit_id") as Int64?, let habit = ids[habitID] else {
        throw ImportError(location, "its habit \(describe(row["habit_id"])) is not in the table Habits")
      }
      let day = try ImportDates.day(row.value("date") as String? ?? describe(row["date"]), location, field: "date")
      let note = (row.value("note") as String?)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
      let type = row.value("type") as Int? ?? -1
      if type == 2 {
        builder.add(HabitEntry(day: day, status: .done, note: note.isEmpty ? nil : note), to: habit)
      } else {
        otherTypes[type, default: 0] += 1
        if !note.isEmpty { builder.add(HabitEntry(day: day, status: .noted, note: note), to: habit) }
      }
    }
    let (habits, dayWarnings) = builder.build()
    for (type, count) in otherTypes.sorted(by: { $0.key < $1.key }) {
      warnings.append(
        ImportWarning(
          habit: nil,
          "\(LoopMapping.count(count, "check-in")) of type \(type) left out: only type 2 is a day done (as Loop's importer reads Rewire)"))
    }
    if checkinColumns.contains("actual_count"),
      let counted = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM CHECKINS WHERE actual_count > 0"), counted > 0
    {
      warnings.append(
        ImportWarning(
          habit: nil,
          "\(LoopMapping.count(counted, "check-in")) \(counted == 1 ? "records" : "record") an amount (actual_count), which is not imported: Rewire's amounts are not documented, so each is a day done or not as its type says"))
    }
    if habitColumns.contains("category"),
      let grouped = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Habits WHERE category >= 0"), grouped > 0
    {
      warnings.append(
        ImportWarning(habit: nil, "the categories of \(LoopMapping.count(grouped, "habit")) are not carried (Tally has none)"))
    }
    return ImportedHistory(format: .rewire, habits: habits, warnings: warnings + dayWarnings)
  }

  /// The habit's schedule: chosen weekdays as they are, the others as "numerator in
  /// denominator days", Loop's terms.
  static func schedule(_ row: Row, location: String, habit: String, warnings: inout [ImportWarning]) throws -> Frequency {
    let (numerator, denominator): (Int, Int)
    switch row.value("schedule") as Int? ?? -1 {
    case 0:
      return try chosenWeekdays(row.value("active_days") as String?, location: location)
    case 1:
      let periods = [7, 31, 365]
      guard let index = row.value("period") as Int?, periods.indices.contains(index),
        let days = row.value("days") as Int?, days >= 1, days <= periods[index]
      else {
        throw ImportError(location, "its goal of \(describe(row["days"])) days per period \(describe(row["period"])) is not one Rewire writes")
      }
      (numerator, denominator) = (days, periods[index])
    case 2:
      guard let count = row.value("repeating_count") as Int?, (1...365).contains(count) else {
        throw ImportError(location, "its repeating_count \(describe(row["repeating_count"])) is not 1 to 365 days")
      }
      (numerator, denominator) = (1, count)
    default:
      throw ImportError(location, "its schedule \(describe(row["schedule"])) is not one Rewire writes (0, 1 or 2)")
    }
    let (frequency, change) = LoopMapping.frequency(numerator: numerator, denominator: denominator)
    if let change { warnings.append(ImportWarning(habit: habit, change)) }
    return frequency
  }

  /// `active_days` such as `1,3,5` (Monday, Wednesday, Friday): those weekdays, or daily for all seven.
  static func chosenWeekdays(_ text: String?, location: String) throws -> Frequency {
    let numbers = (text ?? "").split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    let days = numbers.compactMap { $0.flatMap { Weekday(rawValue: $0 + 1) } }
    guard !days.isEmpty, days.count == numbers.count else {
      throw ImportError(location, "its active_days \(text.map { "'\($0)'" } ?? "NULL") are not weekdays 0 (Sunday) to 6 (Saturday)")
    }
    let unique = Array(Set(days))
    if unique.count == 7 { return .daily }
    return .weekdays(try WeekdaySet(unique))
  }

  /// Rewire's reminder (`time` in minutes after midnight) as a daily reminder.
  static func reminder(_ db: Database, habit: Int64, name: String, warnings: inout [ImportWarning]) throws -> Reminder {
    guard try db.tableExists("REMINDERS"),
      let row = try Row.fetchOne(db, sql: "SELECT * FROM REMINDERS WHERE habit_id = ? LIMIT 1", arguments: [habit]),
      let minutes = row.value("time") as Int?, minutes > 0, minutes < 1440,
      let time = try? WallTime(hour: minutes / 60, minute: minutes % 60)
    else { return .none }
    let days = Set((row.value("active_days") as String? ?? "").split(separator: ","))
    if days.count < 7 {
      warnings.append(ImportWarning(habit: name, "its reminder at \(time) was on some weekdays only; Tally reminds every day"))
    }
    return .single(time)
  }
}
