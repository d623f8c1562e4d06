import Foundation
import TallyCore

/// Collects habits and their days as a reader meets them, in the file's order, and says what
/// it left out: the days after today, and a second row for a day a habit already has.
struct HabitBuilder {
  let today: Day
  private(set) var habits: [ImportedHabit] = []
  private var index: [String: Int] = [:]
  private var days: [[Day: HabitEntry]] = []
  private var future: [Int] = []
  private var repeated: [Int] = []

  init(today: Day) {
    self.today = today
  }

  /// The habit called `name`, made by `make` the first time.
  mutating func habit(_ name: String, make: () -> ImportedHabit) -> Int {
    if let found = index[name] { return found }
    habits.append(make())
    days.append([:])
    future.append(0)
    repeated.append(0)
    index[name] = habits.count - 1
    return habits.count - 1
  }

  subscript(habit: Int) -> ImportedHabit {
    get { habits[habit] }
    set { habits[habit] = newValue }
  }

  /// Adds the entry unless its day is after today or the habit has the day already (the
  /// first one read is kept): both counted for ``warnings``.
  mutating func add(_ entry: HabitEntry, to habit: Int) {
    guard entry.day <= today else {
      future[habit] += 1
      return
    }
    guard days[habit][entry.day] == nil else {
      repeated[habit] += 1
      return
    }
    days[habit][entry.day] = entry
  }

  func hasDay(_ day: Day, habit: Int) -> Bool { days[habit][day] != nil }

  /// A habit whose file records amounts but no target or unit (HabitBull, Streaks): at least
  /// 1 a day, no unit, and a warning saying so. `amounts` names them as the file does.
  static func measured(_ name: String, amounts: String) -> (ImportedHabit, ImportWarning) {
    var habit = ImportedHabit(name: name)
    habit.measure = try? Measure(unit: "", target: Amount(1))
    return (habit, ImportWarning(habit: name, "its \(amounts) are amounts; the file holds no target, so it is at least 1 a day"))
  }

  /// The habits with their entries by day, and a warning for each habit with days left out.
  func build() -> (habits: [ImportedHabit], warnings: [ImportWarning]) {
    var warnings: [ImportWarning] = []
    var result = habits
    for number in result.indices {
      result[number].entries = days[number].values.sorted { $0.day < $1.day }
      let name = result[number].name
      if future[number] > 0 {
        warnings.append(ImportWarning(habit: name, "\(LoopMapping.count(future[number], "day")) after today (\(today)) left out"))
      }
      if repeated[number] > 0 {
        warnings.append(
          ImportWarning(
            habit: name,
            "\(LoopMapping.count(repeated[number], "row")) for a day already read left out (the first row of a day is kept)"))
      }
    }
    return (result, warnings)
  }
}

/// The days other trackers' files may hold: from 1970 (none of them existed before) to 9999.
enum ImportDates {
  static let first = Day(year: 1970, month: 1, day: 1)!
  static let last = Day(year: 9999, month: 12, day: 31)!

  /// Refuses a day outside ``first``…``last``, naming where it was.
  static func checked(_ day: Day, _ location: String) throws(ImportError) -> Day {
    guard day >= first, day <= last else {
      throw ImportError(location, "the date \(day) is before 1970 or after 9999, not one a habit tracker wrote")
    }
    return day
  }

  /// `YYYY-MM-DD` or `YYYYMMDD`, checked.
  static func day(_ text: String, _ location: String, field: String) throws(ImportError) -> Day {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    var parsed = Day(trimmed)
    if parsed == nil, trimmed.count == 8, trimmed.allSatisfy(\.isASCII), let number = Int(trimmed), number > 0 {
      parsed = Day(year: number / 10_000, month: number / 100 % 100, day: number % 100)
    }
    guard let parsed else { throw ImportError(location, "the \(field) '\(text)' is not a date") }
    return try checked(parsed, location)
  }

  /// The calendar day of `date` in `zone`, checked.
  static func day(of date: Date, in zone: TimeZone, _ location: String) throws(ImportError) -> Day {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    guard let year = parts.year, let month = parts.month, let day = parts.day,
      let result = Day(year: year, month: month, day: day)
    else { throw ImportError(location, "its date \(date) is not a day") }
    return try checked(result, location)
  }
}

/// A CSV file's header, for readers that find columns by name.
struct CSVHeader {
  let file: String
  let columns: [String]

  /// Refuses an empty file or a header without `required`, naming the file's first line.
  init(_ records: [CSVReader.Record], file: String, required: [String], app: String) throws(ImportError) {
    guard let first = records.first?.fields else {
      throw ImportError(file, "the file is empty; it should start with \(app)'s header line")
    }
    let columns = first.map { $0.trimmingCharacters(in: .whitespaces) }
    let missing = required.filter { !columns.contains($0) }
    guard missing.isEmpty else {
      throw ImportError(
        "line 1 of \(file)",
        "the header lacks \(missing.joined(separator: ", ")), so it is not an export of \(app); it is '\(first.joined(separator: ","))'")
    }
    self.file = file
    self.columns = columns
  }

  /// The field of the column `name` in `record`, "" when the file has no such column.
  func field(_ name: String, _ record: CSVReader.Record) -> String {
    columns.firstIndex(of: name).map { record.fields[$0] } ?? ""
  }

  func has(_ name: String) -> Bool { columns.contains(name) }
}
