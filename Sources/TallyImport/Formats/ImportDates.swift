import Foundation
import TallyCore

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

  /// The calendar day of `date` in `zone`, checked: the instant moved by the zone's offset at
  /// that instant, counted in whole days from 1970 (a Calendar built per entry cost an import
  /// of 120,000 entries seconds).
  static func day(of date: Date, in zone: TimeZone, _ location: String) throws(ImportError) -> Day {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e15 else { throw ImportError(location, "its date \(date) is not a day") }
    let local = Int(seconds) + zone.secondsFromGMT(for: date)
    return try checked(Day(ordinal: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400), location)
  }
}
