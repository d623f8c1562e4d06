import Foundation
import TallyCore
import TallyStore

/// A day on the command line: `YYYY-MM-DD`, `today`, `yesterday`, or a range `FIRST..LAST`
/// of those.
enum DayArgument: Hashable {
  case day(Day)
  case today
  case yesterday
  indirect case range(DayArgument, DayArgument)

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
      return try DaySpan.days(from: start, through: end, field: "range")
    }
  }
}
