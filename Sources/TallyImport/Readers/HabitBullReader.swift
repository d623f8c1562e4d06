import Foundation
import TallyCore

/// Reads HabitBull's CSV export (`HabitName,HabitDescription,HabitCategory,CalendarDate,
/// Value,CommentText`, one row per habit and day), as Loop's own HabitBull importer reads it:
/// a value of 1 is done, 0 not done (a noted day when it has a comment); a habit with any
/// value above 1 is measurable, every value its amount. Dates are `YYYY-MM-DD` or
/// `MM/DD/YYYY`. HabitBull's categories are not carried (Tally has none) and are reported.
public enum HabitBullReader {
  static let header = ["HabitName", "HabitDescription", "HabitCategory", "CalendarDate", "Value", "CommentText"]
  static let file = "the HabitBull CSV"

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    let records = try CSVReader.records(data, file: file)
    let columns = try CSVHeader(records, file: file, required: Array(header.prefix(5)), app: "HabitBull")
    var rows: [(habit: String, day: Day, value: Int, note: String)] = []
    var described: [String: String] = [:]
    var categories: [String: Set<String>] = [:]
    var measurable: Set<String> = []
    for record in records.dropFirst() where record.fields != [""] {
      let location = "line \(record.line) of \(file)"
      let name = columns.field("HabitName", record)
      guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ImportError(location, "the HabitName is empty") }
      let day = try date(columns.field("CalendarDate", record), location)
      let text = columns.field("Value", record).trimmingCharacters(in: .whitespaces)
      guard let value = Int(text), value >= 0, value <= Int(Amount.maximum.thousandths / 1000) else {
        throw ImportError(location, "the Value '\(text)' is not a whole number of 0 or more")
      }
      if value > 1 { measurable.insert(name) }
      if described[name] == nil { described[name] = columns.field("HabitDescription", record) }
      let category = columns.field("HabitCategory", record).trimmingCharacters(in: .whitespaces)
      if !category.isEmpty { categories[category, default: []].insert(name) }
      rows.append((name, day, value, columns.field("CommentText", record)))
    }
    var builder = HabitBuilder(today: today)
    var warnings: [ImportWarning] = []
    for row in rows {
      let habit = builder.habit(row.habit) {
        var habit = ImportedHabit(name: row.habit)
        if measurable.contains(row.habit) {
          let warning: ImportWarning
          (habit, warning) = HabitBuilder.measured(row.habit, amounts: "values")
          warnings.append(warning)
        }
        habit.description = described[row.habit].flatMap(descriptionText)
        return habit
      }
      let note = row.note.trimmingCharacters(in: .whitespacesAndNewlines)
      if measurable.contains(row.habit) {
        builder.add(HabitEntry(day: row.day, status: .done, note: note.isEmpty ? nil : note, amount: Amount(row.value)), to: habit)
      } else if row.value == 1 {
        builder.add(HabitEntry(day: row.day, status: .done, note: note.isEmpty ? nil : note), to: habit)
      } else if !note.isEmpty {
        builder.add(HabitEntry(day: row.day, status: .noted, note: note), to: habit)
      }
    }
    let (habits, dayWarnings) = builder.build()
    if !categories.isEmpty {
      let list = categories.keys.sorted().map { "\($0) (\(categories[$0]!.sorted().joined(separator: ", ")))" }
      warnings.append(ImportWarning(habit: nil, "HabitBull's categories are not carried (Tally has none): \(list.joined(separator: "; "))"))
    }
    return ImportedHistory(format: .habitBull, habits: habits, warnings: warnings + dayWarnings)
  }

  static func date(_ text: String, _ location: String) throws(ImportError) -> Day {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/")
    if parts.count == 3, let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]) {
      guard let result = Day(year: year, month: month, day: day) else {
        throw ImportError(location, "the CalendarDate '\(text)' is not a date")
      }
      return try ImportDates.checked(result, location)
    }
    return try ImportDates.day(text, location, field: "CalendarDate")
  }

  static func descriptionText(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : String(trimmed.prefix(Habit.descriptionLengths.upperBound))
  }
}
