import Foundation
import TallyCore
import TallyStore

/// How habits' fields read in human output and parse from options.
enum HabitText {
  /// `, at least 5 km a period` for a measurable habit; empty for a yes/no one.
  static func goal(_ habit: Habit) -> String {
    guard let measure = habit.measure else { return "" }
    let bound = measure.direction == .atMost ? "at most" : "at least"
    return ", \(bound) \(amount(measure.target, of: habit))"
  }

  /// `5.2 km`, or `5.2` for a habit without a unit.
  static func amount(_ amount: Amount, of habit: Habit) -> String {
    guard let unit = habit.measure?.unit, !unit.isEmpty else { return "\(amount)" }
    return "\(amount) \(unit)"
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
