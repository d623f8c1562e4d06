import Foundation
import TallyCore
import TallyStore

/// A habit as `--json` prints it and `export` writes it: ids in lower case, every key present
/// (`null` when unset), so scripts can rely on the shape.
struct HabitJSON: Codable, Equatable {
  var id: String
  var name: String
  var icon: String?
  var color: HexColor
  var group: String?
  var createdDay: Day
  var frequency: Frequency
  var reminder: Reminder
  var archived: Bool
  var sortOrder: Int

  init(_ habit: Habit) {
    id = habit.id.storeText
    name = habit.name
    icon = habit.icon
    color = habit.color
    group = habit.group
    createdDay = habit.createdDay
    frequency = habit.frequency
    reminder = habit.reminder
    archived = habit.archived
    sortOrder = habit.sortOrder
  }

  /// Back to a habit, through every rule a typed one obeys.
  func habit() throws -> Habit {
    guard let uuid = UUID(uuidString: id) else {
      throw TallyCore.ValidationError(field: "habit id", rule: "must be a UUID, not '\(id)'")
    }
    return try Habit(
      id: uuid, name: name, icon: icon, color: color, group: group, createdDay: createdDay,
      frequency: frequency, reminder: reminder, archived: archived, sortOrder: sortOrder)
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, icon, color, group, createdDay, frequency, reminder, archived, sortOrder
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(icon, forKey: .icon)
    try c.encode(color, forKey: .color)
    try c.encode(group, forKey: .group)
    try c.encode(createdDay, forKey: .createdDay)
    try c.encode(frequency, forKey: .frequency)
    try c.encode(reminder, forKey: .reminder)
    try c.encode(archived, forKey: .archived)
    try c.encode(sortOrder, forKey: .sortOrder)
  }
}

/// How habits' fields read in human output and parse from options.
enum HabitText {
  /// `daily`, `3 a week`.
  static func frequency(_ frequency: Frequency) -> String {
    switch frequency {
    case .daily: "daily"
    case .weekly(let target): "\(target) a week"
    }
  }

  /// `08:00`, `08:00-22:00 every 2h`, or empty.
  static func reminder(_ reminder: Reminder) -> String {
    switch reminder {
    case .none: ""
    case .single(let time): "\(time)"
    case .periodic(let start, let end, let every): "\(start)-\(end) every \(every)h"
    }
  }

  /// `none`, `HH:MM`, or `HH:MM-HH:MM/Nh` (every N hours from the first time to the second).
  static func parseReminder(_ text: String) throws(TallyCore.ValidationError) -> Reminder {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if trimmed == "none" || trimmed.isEmpty { return .none }
    let rule =
      "must be none, a time like 08:30, or a period like 08:00-22:00/2h (every 2 hours), not '\(text)'"
    if let slash = trimmed.firstIndex(of: "/") {
      let span = trimmed[..<slash].split(separator: "-", omittingEmptySubsequences: false)
      var every = trimmed[trimmed.index(after: slash)...]
      if every.hasSuffix("h") { every = every.dropLast() }
      guard span.count == 2, let hours = Int(every) else {
        throw TallyCore.ValidationError(field: "reminder", rule: rule)
      }
      let start = try WallTime(parsing: String(span[0]), field: "reminder")
      let end = try WallTime(parsing: String(span[1]), field: "reminder")
      return try Reminder.periodic(start: start, end: end, everyHours: hours).validated()
    }
    do {
      return .single(try WallTime(parsing: trimmed, field: "reminder"))
    } catch {
      throw TallyCore.ValidationError(field: "reminder", rule: rule)
    }
  }

  /// The weekly target from `--weekly K`.
  static func weekly(_ target: Int) throws(TallyCore.ValidationError) -> Frequency {
    guard Frequency.weeklyTargets.contains(target) else {
      throw TallyCore.ValidationError(
        field: "weekly target", rule: "must be from 1 to 6 days a week (7 is daily), not \(target)")
    }
    return .weekly(targetPerWeek: target)
  }
}
