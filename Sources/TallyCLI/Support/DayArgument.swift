import Foundation
import TallyCore

/// A day on the command line: `YYYY-MM-DD`, `today`, `yesterday`, or a range `FIRST..LAST`
/// of those.
enum DayArgument: Hashable {
  case day(Day)
  case today
  case yesterday
  indirect case range(DayArgument, DayArgument)

  /// The most days one range may hold: a century, so a typo cannot ask for millions.
  static let maxRangeLength = 36_525

  init(parsing text: String) throws(TallyCore.ValidationError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let dots = trimmed.range(of: "..") {
      let first = try DayArgument(single: String(trimmed[..<dots.lowerBound]))
      let last = try DayArgument(single: String(trimmed[dots.upperBound...]))
      self = .range(first, last)
    } else {
      self = try DayArgument(single: trimmed)
    }
  }

  private init(single text: String) throws(TallyCore.ValidationError) {
    switch text.lowercased() {
    case "today": self = .today
    case "yesterday": self = .yesterday
    default:
      guard let day = Day(text) else {
        throw TallyCore.ValidationError(
          field: "day",
          rule: "must be a date written YYYY-MM-DD like 2026-03-08, today, yesterday or a range "
            + "FIRST..LAST, not '\(text)'")
      }
      self = .day(day)
    }
  }

  /// The days this argument names, given today.
  func days(today: Day) throws(TallyCore.ValidationError) -> [Day] {
    switch self {
    case .day(let day): return [day]
    case .today: return [today]
    case .yesterday: return [today.adding(days: -1)]
    case .range(let first, let last):
      let start = try first.days(today: today)[0]
      let end = try last.days(today: today)[0]
      guard start <= end else {
        throw TallyCore.ValidationError(
          field: "range", rule: "\(start)..\(end) must not end before it starts")
      }
      guard start.days(to: end) < DayArgument.maxRangeLength else {
        throw TallyCore.ValidationError(
          field: "range", rule: "\(start)..\(end) is longer than a century")
      }
      return Array(start...end)
    }
  }
}
