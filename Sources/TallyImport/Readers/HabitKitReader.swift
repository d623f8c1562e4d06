import Foundation
import TallyCore

/// Reads HabitKit's JSON export as its one public description gives it (Habikit's
/// `docs/IMPORT_HABITKIT.md`, taken from InlitX/streak's importer; no sample file is public):
/// `habits[{id, name, description, color, archived, orderIndex}]`,
/// `completions[{habitId, date, timezoneOffsetInMinutes, amountOfCompletions}]` and
/// `intervals[{habitId, requiredNumberOfCompletionsPerDay}]`. A completion's `date` is local
/// midnight in UTC, so its day is `date` plus the offset. A habit asking more than one
/// completion a day, or with a day of several, is measurable in "completions". The description
/// names no weekdays, so every habit is daily; fields it does not name are reported, not guessed.
public enum HabitKitReader {
  static let file = "the HabitKit export"
  static let habitKeys: Set = ["id", "name", "description", "color", "iconName", "archived", "orderIndex", "createdAt"]
  static let intervalKeys: Set = ["id", "habitId", "requiredNumberOfCompletionsPerDay", "startDate", "endDate"]

  /// A HabitKit export by its three lists, which no other JSON Tally reads holds together.
  static func isExport(_ object: [String: Any]) -> Bool {
    object["habits"] is [Any] && object["completions"] is [Any] && object["intervals"] is [Any]
  }

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], isExport(object) else {
      throw ImportError(nil, "the file is not a HabitKit export: it is not a JSON object with habits, completions and intervals")
    }
    var warnings: [ImportWarning] = []
    let habits = try habitRows(object["habits"] as? [Any] ?? [], warnings: &warnings)
    let indexByID = Dictionary(habits.enumerated().map { ($0.element.id, $0.offset) }) { first, _ in first }
    let required = try requiredPerDay(object["intervals"] as? [Any] ?? [], habits: indexByID, names: habits.map(\.name), warnings: &warnings)
    let completions = try completionRows(object["completions"] as? [Any] ?? [], habits: indexByID)

    var builder = HabitBuilder(today: today)
    for (number, row) in habits.enumerated() {
      let perDay = required[number] ?? 1
      let measured = perDay > 1 || completions[number, default: []].contains { $0.amount > 1 }
      let index = builder.habit(row.id) {
        var habit = ImportedHabit(name: row.name, color: row.color, archived: row.archived, description: row.description)
        if measured { habit.measure = try? Measure(unit: "completions", target: Amount(perDay)) }
        return habit
      }
      for completion in completions[number, default: []] where completion.amount > 0 {
        builder.add(
          HabitEntry(day: completion.day, status: .done, amount: measured ? Amount(completion.amount) : nil), to: index)
      }
    }
    if let categories = object["categories"] as? [Any], !categories.isEmpty {
      warnings.append(
        ImportWarning(habit: nil, "\(LoopMapping.count(categories.count, "category")) not carried (Tally has no categories)"))
    }
    let (result, dayWarnings) = builder.build()
    return ImportedHistory(format: .habitKit, habits: result, warnings: warnings + dayWarnings)
  }

  struct HabitRow {
    var id: String
    var name: String
    var description: String?
    var color: HexColor
    var archived: Bool
    var order: Int
  }

  /// The habits in HabitKit's order (`orderIndex`, then the file's).
  static func habitRows(_ list: [Any], warnings: inout [ImportWarning]) throws(ImportError) -> [HabitRow] {
    var rows: [HabitRow] = []
    var unread: Set<String> = []
    for (number, item) in list.enumerated() {
      let location = "habit \(number + 1) of \(file)"
      guard let habit = item as? [String: Any], let id = identifier(habit["id"]) else {
        throw ImportError(location, "it has no id")
      }
      guard let name = (habit["name"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else {
        throw ImportError(location, "it has no name")
      }
      guard !rows.contains(where: { $0.id == id }) else { throw ImportError(location, "its id '\(id)' is another habit's too") }
      unread.formUnion(Set(habit.keys).subtracting(habitKeys))
      let description = (habit["description"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
      rows.append(
        HabitRow(
          id: id, name: name, description: description?.isEmpty == false ? description : nil,
          color: color(habit["color"] as? String) ?? Habit.defaultColor, archived: habit["archived"] as? Bool ?? false,
          order: JSONValue.wholeNumber(habit["orderIndex"]) ?? number))
    }
    if !unread.isEmpty {
      warnings.append(ImportWarning(habit: nil, "the habits' fields \(unread.sorted().joined(separator: ", ")) are not read"))
    }
    return rows.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
  }

  /// Completions a day each habit asks, by its place in `habits`; a habit with several
  /// intervals keeps the last the file lists, and the import says so.
  static func requiredPerDay(
    _ list: [Any], habits: [String: Int], names: [String], warnings: inout [ImportWarning]
  ) throws(ImportError) -> [Int: Int] {
    var required: [Int: Int] = [:]
    var counts: [Int: Int] = [:]
    var unread: Set<String> = []
    for (number, item) in list.enumerated() {
      let location = "interval \(number + 1) of \(file)"
      guard let interval = item as? [String: Any] else { throw ImportError(location, "it is not an object") }
      let habit = try habitIndex(interval["habitId"], habits: habits, location)
      let value = interval["requiredNumberOfCompletionsPerDay"] ?? 1
      guard let perDay = JSONValue.wholeNumber(value), (1...1000).contains(perDay) else {
        throw ImportError(location, "its requiredNumberOfCompletionsPerDay \(value) is not a whole number from 1 to 1000")
      }
      unread.formUnion(Set(interval.keys).subtracting(intervalKeys))
      required[habit] = perDay
      counts[habit, default: 0] += 1
    }
    for (habit, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
      warnings.append(
        ImportWarning(habit: names[habit], "it has \(count) intervals; the last in the file, \(required[habit] ?? 1) a day, is kept"))
    }
    if !unread.isEmpty {
      warnings.append(
        ImportWarning(
          habit: nil,
          "the intervals' fields \(unread.sorted().joined(separator: ", ")) are not read: HabitKit's public description does not say what they mean, so every habit is daily"))
    }
    return required
  }

  /// Each habit's completions by its place in `habits`, with the local day and the number done.
  static func completionRows(_ list: [Any], habits: [String: Int]) throws(ImportError) -> [Int: [(day: Day, amount: Int)]] {
    var result: [Int: [(day: Day, amount: Int)]] = [:]
    let parser = ISOInstantParser()
    var days = InstantDays()
    for (number, item) in list.enumerated() {
      let location = "completion \(number + 1) of \(file)"
      guard let completion = item as? [String: Any] else { throw ImportError(location, "it is not an object") }
      let habit = try habitIndex(completion["habitId"], habits: habits, location)
      guard let text = completion["date"] as? String, let instant = parser.instant(text) else {
        throw ImportError(location, "its date \(completion["date"].map { "'\($0)'" } ?? "is missing and") is not an ISO 8601 time")
      }
      let offsetValue = completion["timezoneOffsetInMinutes"] ?? 0
      guard let offset = JSONValue.wholeNumber(offsetValue), (-1440...1440).contains(offset) else {
        throw ImportError(location, "its timezoneOffsetInMinutes \(offsetValue) is not a whole number of minutes from -1440 to 1440")
      }
      let amountValue = completion["amountOfCompletions"] ?? 1
      guard let amount = JSONValue.wholeNumber(amountValue), (0...1_000_000).contains(amount) else {
        throw ImportError(location, "its amountOfCompletions \(amountValue) is not a whole number from 0 to 1000000")
      }
      let day = try days.day(of: instant.addingTimeInterval(Double(offset) * 60), in: .gmt, location)
      result[habit, default: []].append((day, amount))
    }
    return result
  }

  static func habitIndex(_ value: Any?, habits: [String: Int], _ location: String) throws(ImportError) -> Int {
    guard let id = identifier(value), let index = habits[id] else {
      throw ImportError(location, "its habitId \(value.map { "'\($0)'" } ?? "is missing and") names no habit in the file")
    }
    return index
  }

  /// HabitKit's ids are strings; a number is read as its text.
  static func identifier(_ value: Any?) -> String? {
    if let text = value as? String, !text.isEmpty { return text }
    return (value as? NSNumber)?.stringValue
  }

  /// HabitKit's colours: a Material name (`blue`, `deepOrange`) as Material's 500 shade, or hex.
  static func color(_ text: String?) -> HexColor? {
    guard let text else { return nil }
    let hex = materialColors[text] ?? text
    return try? HexColor(parsing: hex.hasPrefix("#") ? hex : "#\(hex)")
  }

  static let materialColors = [
    "red": "F44336", "pink": "E91E63", "purple": "9C27B0", "deepPurple": "673AB7", "indigo": "3F51B5",
    "blue": "2196F3", "lightBlue": "03A9F4", "cyan": "00BCD4", "teal": "009688", "green": "4CAF50",
    "lightGreen": "8BC34A", "lime": "CDDC39", "yellow": "FFEB3B", "amber": "FFC107", "orange": "FF9800",
    "deepOrange": "FF5722", "brown": "795548", "grey": "9E9E9E", "blueGrey": "607D8B",
  ]
}
