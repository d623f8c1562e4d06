import Foundation
import TallyCore

/// Reads Habitica's `userdata.json` (its data export controller: the user object with
/// `tasks.habits`, `tasks.dailys`, `tasks.todos`, `tasks.rewards`). Dailies keep their
/// schedule (`frequency` `daily` every `everyX` days, `weekly` on the `repeat` weekdays) and
/// their `history` entries marked `completed`; habits their days scored up (`scoredUp`, the
/// count). A history `date` (milliseconds) is read on the user's day: minus
/// `preferences.timezoneOffset` minutes (JavaScript's sign, west positive) and `dayStart` hours.
/// To-dos and rewards are not habits: they are counted in warnings, never dropped unsaid.
public enum HabiticaReader {
  static let file = "the Habitica export"
  static let weekdays: [(String, Weekday)] = [
    ("su", .sunday), ("m", .monday), ("t", .tuesday), ("w", .wednesday), ("th", .thursday), ("f", .friday), ("s", .saturday),
  ]

  static func isExport(_ object: [String: Any]) -> Bool {
    guard let tasks = object["tasks"] as? [String: Any] else { return false }
    return tasks["dailys"] != nil || tasks["habits"] != nil || tasks["todos"] != nil
  }

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], isExport(object),
      let tasks = object["tasks"] as? [String: Any]
    else {
      throw ImportError(nil, "the file is not Habitica's userdata.json: it is not a JSON object with tasks")
    }
    let preferences = object["preferences"] as? [String: Any] ?? [:]
    let shift = (JSONValue.wholeNumber(preferences["timezoneOffset"]) ?? 0) * 60
      + (JSONValue.wholeNumber(preferences["dayStart"]) ?? 0) * 3600
    var builder = HabitBuilder(today: today)
    var instantDays = InstantDays()
    var warnings: [ImportWarning] = []
    var unread = 0
    var scoredDown = 0
    for (kind, list) in [("daily", tasks["dailys"]), ("habit", tasks["habits"])] {
      for (number, item) in (list as? [Any] ?? []).enumerated() {
        let location = "\(kind) \(number + 1) of \(file)"
        guard let task = item as? [String: Any],
          let name = (task["text"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty
        else { throw ImportError(location, "it has no text") }
        var habit = ImportedHabit(name: name)
        let notes = (task["notes"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        habit.description = notes.isEmpty ? nil : String(notes.prefix(Habit.descriptionLengths.upperBound))
        if kind == "daily" { habit.frequency = schedule(task, habit: name, warnings: &warnings) }
        var days: [(day: Day, count: Int)] = []
        for (index, entry) in (task["history"] as? [Any] ?? []).enumerated() {
          guard let entry = entry as? [String: Any], let millis = (entry["date"] as? NSNumber)?.doubleValue,
            millis.isFinite, abs(millis) < 1e15
          else { throw ImportError("history entry \(index + 1) of \(location)", "its date is not milliseconds since 1970") }
          scoredDown += JSONValue.wholeNumber(entry["scoredDown"]).map { max(0, $0) } ?? 0
          let count = kind == "daily" ? (entry["completed"] as? Bool).map { $0 ? 1 : 0 } : JSONValue.wholeNumber(entry["scoredUp"])
          guard let count else {
            unread += 1
            continue
          }
          guard count > 0 else { continue }
          let instant = Date(timeIntervalSince1970: millis / 1000 - Double(shift))
          days.append((try instantDays.day(of: instant, in: .gmt, "history entry \(index + 1) of \(location)"), count))
        }
        if days.contains(where: { $0.count > 1 }) { habit.measure = try? Measure(unit: "times", target: Amount(1)) }
        let index = builder.habit("\(kind) \(task["id"] ?? number)") { habit }
        for (day, count) in days {
          builder.add(HabitEntry(day: day, status: .done, amount: habit.measure == nil ? nil : Amount(count)), to: index)
        }
      }
    }
    if unread > 0 {
      warnings.append(
        ImportWarning(
          habit: nil,
          "\(LoopMapping.count(unread, "history entry")) without completed (dailies) or scoredUp (habits) left out: their value is Habitica's task score, not a day done"))
    }
    if scoredDown > 0 {
      warnings.append(
        ImportWarning(habit: nil, "\(LoopMapping.count(scoredDown, "negative score")) (scoredDown) not carried: Tally's habits count days done"))
    }
    for (key, what) in [("todos", "to-do"), ("rewards", "reward")] {
      let list = tasks[key] as? [Any] ?? []
      guard !list.isEmpty else { continue }
      let done = list.filter { ($0 as? [String: Any])?["completed"] as? Bool == true }.count
      let detail = key == "todos" ? " (\(done) completed)" : ""
      warnings.append(
        ImportWarning(habit: nil, "\(LoopMapping.count(list.count, what))\(detail) not carried: Tally keeps habits, not \(what)s"))
    }
    let (habits, dayWarnings) = builder.build()
    return ImportedHistory(format: .habitica, habits: habits, warnings: warnings + dayWarnings)
  }

  /// A daily's days: every `everyX` days, or the `repeat` weekdays (every `everyX` weeks is
  /// kept as every week, with a warning); `monthly` and `yearly` as once a month or year.
  static func schedule(_ task: [String: Any], habit: String, warnings: inout [ImportWarning]) -> Frequency {
    let every = max(1, min(365, JSONValue.wholeNumber(task["everyX"]) ?? 1))
    switch task["frequency"] as? String ?? "weekly" {
    case "daily":
      return LoopMapping.frequency(numerator: 1, denominator: every).0
    case "monthly":
      warnings.append(ImportWarning(habit: habit, "its monthly days are not carried: once a month"))
      return .monthly(timesPerMonth: 1)
    case "yearly":
      warnings.append(ImportWarning(habit: habit, "its yearly day is not carried: once in 365 days"))
      return .timesInDays(times: 1, days: 365)
    default:
      let repeatDays = task["repeat"] as? [String: Any] ?? [:]
      let days = weekdays.filter { repeatDays[$0.0] as? Bool ?? true }.map(\.1)
      if every > 1 {
        warnings.append(ImportWarning(habit: habit, "it was every \(every) weeks; Tally repeats its weekdays every week"))
      }
      guard let set = try? WeekdaySet(days) else {
        if days.isEmpty { warnings.append(ImportWarning(habit: habit, "it names no weekday; it is daily")) }
        return .daily
      }
      return .weekdays(set)
    }
  }
}
