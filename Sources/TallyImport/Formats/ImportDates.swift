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

}

/// The days of a file's instants, through the engine's one door from instants to days
/// (`DayCalendar.day(containing:)`, docs/date-model.md), with the calendar of each time zone the
/// file names made once: making one for each of 100,000 entries took seconds.
struct InstantDays {
  private var calendars: [String: DayCalendar] = [:]

  /// The calendar day of `date` in `zone` (no day switch hour: files record calendar days), checked.
  mutating func day(of date: Date, in zone: TimeZone, _ location: String) throws(ImportError) -> Day {
    guard date.timeIntervalSince1970.isFinite, abs(date.timeIntervalSince1970) < 1e12 else {
      throw ImportError(location, "its date \(date) is not a day")
    }
    let calendar = calendars[zone.identifier] ?? DayCalendar(calendarDaysIn: zone)
    calendars[zone.identifier] = calendar
    return try ImportDates.checked(calendar.day(containing: date), location)
  }
}

extension DayCalendar {
  /// A calendar whose days start at midnight: 0 is always a valid switch hour.
  init(calendarDaysIn zone: TimeZone) {
    do {
      try self.init(timeZone: zone)
    } catch {
      preconditionFailure("a day switch hour of 0 is refused: \(error)")
    }
  }
}
