import Foundation
import TallyCore

/// Reads Streaks' CSV export, its entry history only (the file holds no schedule): a task per
/// `task_id`, named by its `title`, a daily habit. `entry_type` `completed_…` is a day done,
/// `skipped_…` a day skipped, `missed_…` a day without an entry (how Tally keeps a day not
/// done; counted in a warning). Newer exports add `quantity` and `notes`: a task with a
/// quantity other than 1 is measurable, each completed day's quantity its amount; notes are
/// kept. `entry_date` (`yyyymmdd`) is the day.
public enum StreaksReader {
  static let requiredColumns = ["task_id", "title", "entry_type", "entry_date"]
  static let file = "the Streaks CSV"

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    let records = try CSVReader.records(data, file: file)
    let header = try CSVHeader(records, file: file, required: requiredColumns, app: "Streaks")
    var rows: [(task: String, title: String, day: Day, status: EntryStatus?, quantity: Double?, note: String)] = []
    var measurable: Set<String> = []
    for record in records.dropFirst() where record.fields != [""] {
      let location = "line \(record.line) of \(file)"
      let task = header.field("task_id", record)
      let title = header.field("title", record).trimmingCharacters(in: .whitespaces)
      guard !task.isEmpty, !title.isEmpty else { throw ImportError(location, "the task has no task_id or title") }
      let type = header.field("entry_type", record)
      let status: EntryStatus?
      if type.hasPrefix("completed") {
        status = .done
      } else if type.hasPrefix("skipped") {
        status = .skipped
      } else if type.hasPrefix("missed") {
        status = nil
      } else {
        throw ImportError(location, "the entry_type '\(type)' is not one Streaks writes (completed_…, missed_… or skipped_…)")
      }
      let day = try ImportDates.day(header.field("entry_date", record), location, field: "entry_date")
      var quantity: Double?
      let quantityText = header.field("quantity", record).trimmingCharacters(in: .whitespaces)
      if !quantityText.isEmpty {
        guard let value = Double(quantityText), value >= 0, value <= Amount.maximum.doubleValue else {
          throw ImportError(location, "the quantity '\(quantityText)' is not a number of 0 or more")
        }
        quantity = value
        if status == .done && value != 1 { measurable.insert(task) }
      }
      rows.append((task, title, day, status, quantity, header.field("notes", record)))
    }
    var builder = HabitBuilder(today: today)
    var warnings: [ImportWarning] = []
    var missed: [String: Int] = [:]
    for row in rows {
      let habit = builder.habit(row.task) {
        guard measurable.contains(row.task) else { return ImportedHabit(name: row.title) }
        let (habit, warning) = HabitBuilder.measured(row.title, amounts: "quantities")
        warnings.append(warning)
        return habit
      }
      let note = row.note.trimmingCharacters(in: .whitespacesAndNewlines)
      guard let status = row.status else {
        missed[builder[habit].name, default: 0] += 1
        if !note.isEmpty { builder.add(HabitEntry(day: row.day, status: .noted, note: note), to: habit) }
        continue
      }
      let amount = measurable.contains(row.task) && status == .done ? Amount(rounding: row.quantity ?? 1) : nil
      builder.add(HabitEntry(day: row.day, status: status, note: note.isEmpty ? nil : note, amount: amount), to: habit)
    }
    let (habits, dayWarnings) = builder.build()
    for (name, count) in missed.sorted(by: { $0.key < $1.key }) {
      warnings.append(ImportWarning(habit: name, "\(LoopMapping.count(count, "missed day")) kept as days without an entry"))
    }
    if header.has("entry_timestamp") {
      warnings.append(
        ImportWarning(habit: nil, "the times of entries (entry_timestamp) are not carried: Tally keeps the day, entry_date"))
    }
    return ImportedHistory(format: .streaks, habits: habits, warnings: warnings + dayWarnings)
  }
}
