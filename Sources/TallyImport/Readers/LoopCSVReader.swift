import Foundation
import TallyCore
import ZIPFoundation

/// Reads Loop Habit Tracker's CSV export: a zip holding `Habits.csv` and, per habit, a folder
/// `NNN <name>/` with `Checkmarks.csv` (Date, Value, Notes). NNN is the habit's Position in
/// `Habits.csv`. Reminders are not in this export; the wide files and scores are not needed.
public enum LoopCSVReader {
  static let requiredHabitColumns = ["Position", "Name", "FrequencyNumerator", "FrequencyDenominator", "Color"]

  public static func read(path: String, today: Day, progress: ProgressHandler? = nil) throws(ImportError)
    -> ImportedHistory
  {
    var zip = try ZipFiles(path: path)
    let files = zip.entries
    func contents(_ name: String) throws(ImportError) -> Data { try zip.contents(name) }
    let habitsFile = files.keys.first { $0 == "Habits.csv" || $0.hasSuffix("/Habits.csv") } ?? "Habits.csv"
    let prefix = String(habitsFile.dropLast("Habits.csv".count))
    let records = try CSVReader.records(try contents(habitsFile), file: "Habits.csv")
    guard let header = records.first?.fields else {
      throw ImportError("Habits.csv", "the file is empty; it should start with Loop's header line")
    }
    let missing = requiredHabitColumns.filter { !header.contains($0) }
    guard missing.isEmpty else {
      throw ImportError(
        "line 1 of Habits.csv",
        "the header lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); it is '\(header.joined(separator: ","))'")
    }
    // Checkmark files by the number their folder starts with.
    var checkmarks: [Int: String] = [:]
    for name in files.keys where name.hasPrefix(prefix) && name.hasSuffix("/Checkmarks.csv") {
      let folder = name.dropFirst(prefix.count).dropLast("/Checkmarks.csv".count)
      guard !folder.contains("/"), let number = Int(folder.prefix { $0.isNumber }) else { continue }
      checkmarks[number] = name
    }
    var habits: [ImportedHabit] = []
    var warnings: [ImportWarning] = []
    let rows = records.dropFirst().filter { !$0.fields.allSatisfy(\.isEmpty) }
    for (index, record) in rows.enumerated() {
      let location = "line \(record.line) of Habits.csv"
      func field(_ name: String) -> String {
        header.firstIndex(of: name).flatMap { $0 < record.fields.count ? record.fields[$0] : nil } ?? ""
      }
      let name = field("Name")
      guard let position = Int(field("Position")) else {
        throw ImportError(location, "the Position '\(field("Position"))' is not a number")
      }
      guard let numerator = Int(field("FrequencyNumerator")), let denominator = Int(field("FrequencyDenominator")),
        numerator > 0, denominator > 0, numerator <= denominator
      else {
        throw ImportError(
          location,
          "the frequency '\(field("FrequencyNumerator"))' in '\(field("FrequencyDenominator"))' days is not one Loop writes")
      }
      let numeric: Bool
      switch field("Type") {
      case "", "YES_NO": numeric = false
      case "NUMERICAL": numeric = true
      case let other: throw ImportError(location, "the Type '\(other)' is neither YES_NO nor NUMERICAL")
      }
      var target: LoopMapping.Target?
      if numeric {
        guard let value = Double(field("Target Value")) else {
          throw ImportError(location, "the Target Value '\(field("Target Value"))' is not a number")
        }
        guard ["AT_LEAST", "AT_MOST", ""].contains(field("Target Type")) else {
          throw ImportError(location, "the Target Type '\(field("Target Type"))' is neither AT_LEAST nor AT_MOST")
        }
        target = LoopMapping.Target(value: value, atMost: field("Target Type") == "AT_MOST", unit: field("Unit"))
      }
      let color: HexColor
      do {
        color = try HexColor(parsing: field("Color"))
      } catch {
        throw ImportError(location, "the Color '\(field("Color"))' is not a hex colour")
      }
      let archived: Bool
      switch field("Archived?") {
      case "true": archived = true
      case "false", "": archived = false
      case let other: throw ImportError(location, "Archived? is '\(other)', not true or false")
      }
      guard let file = checkmarks[position] else {
        throw ImportError(
          nil, "the zip has no Checkmarks.csv in a folder starting \(String(format: "%03d", position)) for '\(name)' (is the zip complete?)")
      }
      let marks = try readCheckmarks(try contents(file), file: file, numeric: numeric)
      progress?(ImportProgress(stage: "Reading habits", done: index + 1, total: rows.count))

      let fields = LoopMapping.habitFields(
        numerator: numerator, denominator: denominator, target: target, description: field("Description"), habit: name)
      warnings += fields.warnings
      let (entries, entryWarnings) = LoopMapping.entries(marks, habit: name, today: today)
      warnings += entryWarnings
      habits.append(
        ImportedHabit(
          name: name, color: color, frequency: fields.frequency, archived: archived,
          createdDay: LoopMapping.firstDay(marks, today: today), entries: entries, measure: fields.measure,
          description: fields.description))
    }
    return ImportedHistory(format: .loopCSV, habits: habits, warnings: warnings)
  }

  static func readCheckmarks(_ data: Data, file: String, numeric: Bool) throws(ImportError)
    -> [(day: Day, mark: LoopMapping.Checkmark, note: String)]
  {
    let records = try CSVReader.records(data, file: file)
    guard let header = records.first?.fields, header.count >= 2, header[0] == "Date", header[1] == "Value" else {
      throw ImportError("line 1 of \(file)", "the header must start Date,Value")
    }
    var seen: Set<Day> = []
    var marks: [(day: Day, mark: LoopMapping.Checkmark, note: String)] = []
    for record in records.dropFirst() where !record.fields.allSatisfy(\.isEmpty) {
      let location = "line \(record.line) of \(file)"
      guard record.fields.count >= 2 else { throw ImportError(location, "it has no Value") }
      guard let day = Day(record.fields[0]) else {
        throw ImportError(location, "the Date '\(record.fields[0])' is not a date written YYYY-MM-DD")
      }
      guard seen.insert(day).inserted else { throw ImportError(location, "the Date \(day) is listed twice") }
      guard let mark = LoopMapping.checkmark(text: record.fields[1], numeric: numeric) else {
        throw ImportError(
          location,
          "the Value '\(record.fields[1])' is not one Loop writes (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN\(numeric ? " or a number" : ""))")
      }
      marks.append((day, mark, record.fields.count > 2 ? record.fields[2] : ""))
    }
    return marks
  }
}
