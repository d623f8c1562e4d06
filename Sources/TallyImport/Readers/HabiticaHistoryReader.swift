import Foundation
import TallyCore

/// Reads Habitica's `history.csv` (its data export controller: `Task Name, Task ID, Task Type,
/// Date, Value`, one row per history entry of each habit and daily). The file holds a task's
/// score after each entry, not what was pressed, so a day done is read from the score rising:
/// Habitica raises a task's value only when it is scored up (a daily checked, a habit's +),
/// and every task starts at 0. A daily's other rows (missed, not due) and a habit's rows whose
/// value did not rise are not days done; the latter are counted in a warning, since a
/// one-button habit drifts toward zero between uses and can hide a press (userdata.json holds
/// the presses). `Date` is the server's UTC time, read on the importing user's day.
public enum HabiticaHistoryReader {
  static let header = ["Task Name", "Task ID", "Task Type", "Date", "Value"]
  static let file = "the Habitica history.csv"

  private struct Row {
    var line: Int
    var name: String
    var type: String
    var instant: Date
    var value: Double
  }

  public static func read(_ data: Data, today: Day, timeZone: TimeZone) throws(ImportError) -> ImportedHistory {
    let records = try CSVReader.records(data, file: file)
    let columns = try CSVHeader(records, file: file, required: header, app: "Habitica (history.csv)")
    var order: [String] = []
    var rowsByTask: [String: [Row]] = [:]
    for record in records.dropFirst() where record.fields != [""] {
      let location = "line \(record.line) of \(file)"
      let task = columns.field("Task ID", record).trimmingCharacters(in: .whitespaces)
      let name = columns.field("Task Name", record).trimmingCharacters(in: .whitespacesAndNewlines)
      guard !task.isEmpty, !name.isEmpty else { throw ImportError(location, "the task has no Task ID or Task Name") }
      let type = columns.field("Task Type", record)
      guard type == "habit" || type == "daily" else {
        throw ImportError(location, "the Task Type '\(type)' is not one history.csv holds (habit or daily)")
      }
      let valueText = columns.field("Value", record).trimmingCharacters(in: .whitespaces)
      guard let value = Double(valueText), value.isFinite else {
        throw ImportError(location, "the Value '\(valueText)' is not a number")
      }
      let row = Row(
        line: record.line, name: name, type: type, instant: try instant(columns.field("Date", record), location),
        value: value)
      if rowsByTask[task] == nil { order.append(task) }
      rowsByTask[task, default: []].append(row)
    }
    var builder = HabitBuilder(today: today)
    var days = InstantDays()
    var unrisen = 0
    for task in order {
      let rows = rowsByTask[task, default: []].sorted { ($0.instant, $0.line) < ($1.instant, $1.line) }
      guard let first = rows.first else { continue }
      let index = builder.habit(task) { ImportedHabit(name: first.name) }
      var previous = 0.0
      for row in rows {
        defer { previous = row.value }
        guard row.value > previous else {
          if row.type == "habit" { unrisen += 1 }
          continue
        }
        let day = try days.day(of: row.instant, in: timeZone, "line \(row.line) of \(file)")
        builder.add(HabitEntry(day: day, status: .done), to: index)
      }
    }
    var warnings = [
      ImportWarning(
        habit: nil,
        "history.csv holds no schedules: dailies are imported as daily habits (userdata.json carries their weekdays)")
    ]
    if unrisen > 0 {
      warnings.append(
        ImportWarning(
          habit: nil,
          "\(LoopMapping.count(unrisen, "habit day")) whose score did not rise not carried: history.csv holds scores, not presses (userdata.json holds them)"
        ))
    }
    let (habits, dayWarnings) = builder.build()
    return ImportedHistory(format: .habiticaHistory, habits: habits, warnings: warnings + dayWarnings)
  }

  /// `YYYY-MM-DD HH:mm:ss`, as Habitica's server writes it in UTC.
  static func instant(_ text: String, _ location: String) throws(ImportError) -> Date {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(separator: " ", omittingEmptySubsequences: false)
    let clock = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) } : []
    guard parts.count == 2, let day = Day(String(parts[0])), clock.count == 3,
      let hour = clock[0], let minute = clock[1], let second = clock[2],
      (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second)
    else { throw ImportError(location, "the Date '\(text)' is not YYYY-MM-DD HH:mm:ss") }
    let checked = try ImportDates.checked(day, location)
    return Date(timeIntervalSince1970: Double(checked.ordinal * 86_400 + hour * 3600 + minute * 60 + second))
  }
}
