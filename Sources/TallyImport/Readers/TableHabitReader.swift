import Foundation
import TallyCore

/// Reads Table Habit's (FriesI23/mhabit) JSON backup as its source writes it
/// (`lib/models/habit_export.dart`): a list of habits, each with `name`, `desc`, `type` (1
/// normal, 2 negative), `status` (1 active, 2 deleted, 3 archived), `daily_goal` and
/// `daily_goal_unit`, `freq_type` (1 weekly, 2 monthly, 3 custom) with `freq_custom` (its
/// JSON `[times]` or `[times, days]`), `start_date` (days since 1970) and `records`
/// (`record_date` days since 1970, `record_type` 1 done or 2 skipped, `record_value`, `reason`).
public enum TableHabitReader {
  static let file = "the Table Habit backup"
  static let unitDefault = "times"

  /// A JSON array whose first item is an object with `records` and `freq_type`.
  static func isBackup(_ value: Any) -> Bool {
    guard let list = value as? [Any], let first = list.first as? [String: Any] else { return false }
    return first["records"] is [Any] && first["freq_type"] != nil
  }

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    guard let json = try? JSONSerialization.jsonObject(with: data), isBackup(json), let list = json as? [Any] else {
      throw ImportError(nil, "the file is not a Table Habit backup: it is not a JSON list of habits with records and freq_type")
    }
    var builder = HabitBuilder(today: today)
    var warnings: [ImportWarning] = []
    var deleted = 0
    for (number, item) in list.enumerated() {
      let location = "habit \(number + 1) of \(file)"
      guard let habit = item as? [String: Any],
        let name = (habit["name"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty
      else { throw ImportError(location, "it has no name") }
      if JSONValue.wholeNumber(habit["status"]) == 2 {
        deleted += 1
        continue
      }
      let records = try recordRows(habit["records"] as? [Any] ?? [], location: location)
      let (times, days) = try schedule(habit, location: location)
      let fields = LoopMapping.habitFields(
        numerator: times, denominator: days, target: try target(habit, records: records, location: location),
        description: habit["desc"] as? String ?? "", habit: name)
      warnings += fields.warnings
      var imported = ImportedHabit(
        name: name, frequency: fields.frequency, archived: JSONValue.wholeNumber(habit["status"]) == 3,
        measure: fields.measure, description: fields.description)
      if let start = JSONValue.wholeNumber(habit["start_date"]) {
        imported.createdDay = try epochDay(start, location, field: "start_date")
      }
      if let argb = JSONValue.wholeNumber(habit["custom_color"]), (0...0xFFFF_FFFF).contains(argb) {
        imported.color = HexColor(red: UInt8(argb >> 16 & 0xFF), green: UInt8(argb >> 8 & 0xFF), blue: UInt8(argb & 0xFF))
      }
      if habit["reminder"] is String {
        warnings.append(ImportWarning(habit: name, "its reminder is not carried (its format is Table Habit's own)"))
      }
      let index = builder.habit("\(number)") { imported }
      var unknown = 0
      for record in records {
        guard let status = record.status else {
          unknown += 1
          continue
        }
        let amount = imported.measure == nil || status != .done ? nil : record.amount
        builder.add(HabitEntry(day: record.day, status: status, note: record.note, amount: amount), to: index)
      }
      if unknown > 0 {
        warnings.append(ImportWarning(habit: name, "\(LoopMapping.count(unknown, "record")) of record_type 0 (unknown) left out"))
      }
    }
    if deleted > 0 {
      warnings.append(ImportWarning(habit: nil, "\(LoopMapping.count(deleted, "deleted habit")) (status 2) left out"))
    }
    let (habits, dayWarnings) = builder.build()
    return ImportedHistory(format: .tableHabit, habits: habits, warnings: warnings + dayWarnings)
  }

  /// `freq_type` with its `freq_custom` arguments as "times in days", Loop's terms.
  static func schedule(_ habit: [String: Any], location: String) throws(ImportError) -> (times: Int, days: Int) {
    let type = JSONValue.wholeNumber(habit["freq_type"]) ?? 3
    let text = habit["freq_custom"] as? String ?? "[1, 1]"
    let arguments = ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [Any])?.compactMap(JSONValue.wholeNumber)
    let ratio: (Int, Int)? =
      switch (type, arguments ?? []) {
      case (1, let args) where args.count >= 1: (args[0], 7)
      case (2, let args) where args.count >= 1: (args[0], 30)
      case (3, let args) where args.count >= 2: (args[0], args[1])
      default: nil
      }
    guard let (times, days) = ratio, times >= 1, days >= 1 else {
      throw ImportError(location, "its freq_type \(type) with freq_custom '\(text)' is not a schedule Table Habit writes")
    }
    return (min(times, days), days)
  }

  /// A habit asking 1 a day, with no record above 1, is yes/no; any other has its
  /// `daily_goal` in its `daily_goal_unit` as target, a negative habit's a limit (at most).
  static func target(_ habit: [String: Any], records: [Record], location: String) throws(ImportError) -> LoopMapping.Target? {
    let goal = (habit["daily_goal"] as? NSNumber)?.doubleValue ?? 1
    let negative = JSONValue.wholeNumber(habit["type"]) == 2
    guard goal != 1 || negative || records.contains(where: { ($0.amount?.doubleValue ?? 0) > 1 }) else { return nil }
    guard goal >= 0, goal <= Amount.maximum.doubleValue else {
      throw ImportError(location, "its daily_goal \(goal) is not a number from 0 to \(Amount.maximum)")
    }
    let unit = (habit["daily_goal_unit"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? unitDefault
    return LoopMapping.Target(value: goal, atMost: negative, unit: unit)
  }

  struct Record {
    var day: Day
    var status: EntryStatus?
    var amount: Amount?
    var note: String?
  }

  static func recordRows(_ list: [Any], location habit: String) throws(ImportError) -> [Record] {
    var records: [Record] = []
    for (number, item) in list.enumerated() {
      let location = "record \(number + 1) of \(habit)"
      guard let record = item as? [String: Any], let date = JSONValue.wholeNumber(record["record_date"]) else {
        throw ImportError(location, "it has no record_date")
      }
      let status: EntryStatus? =
        switch JSONValue.wholeNumber(record["record_type"]) ?? 1 {
        case 1: .done
        case 2: .skipped
        default: nil
        }
      var amount: Amount?
      if let value = (record["record_value"] as? NSNumber)?.doubleValue {
        guard value >= 0, value <= Amount.maximum.doubleValue else {
          throw ImportError(location, "its record_value \(value) is not a number from 0 to \(Amount.maximum)")
        }
        amount = Amount(rounding: value)
      }
      let note = (record["reason"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
      records.append(
        Record(day: try epochDay(date, location, field: "record_date"), status: status, amount: amount,
               note: note?.isEmpty == false ? note : nil))
    }
    return records
  }

  /// Table Habit counts days from 1 January 1970 (its `HabitDate.epochDay`).
  static func epochDay(_ number: Int, _ location: String, field: String) throws(ImportError) -> Day {
    guard (ImportDates.first.ordinal...ImportDates.last.ordinal).contains(number) else {
      throw ImportError(location, "its \(field) \(number) is not a day from 1970 to 9999 (days since 1970)")
    }
    return Day(ordinal: number)
  }
}
