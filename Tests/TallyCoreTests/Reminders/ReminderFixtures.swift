import Foundation
import TallyCore
import Testing

/// Shorthands for reminder tests: days, times, instants and calendars from literals.
enum ReminderFixtures {
  static let zoneNames = [
    "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kolkata",
  ]

  /// DST transitions, the day Samoa skipped, a leap day, and plain days around them.
  static let notableDays = [
    "2026-03-08", "2026-11-01", "2026-03-29", "2026-10-25", "2026-04-05", "2026-10-04",
    "2011-12-29", "2011-12-30", "2011-12-31", "2024-02-29", "2024-02-28", "2024-03-01",
  ].map { Day($0)! }

  static func day(_ text: String) throws -> Day {
    try #require(Day(text))
  }

  static func time(_ text: String) throws -> WallTime {
    try WallTime(parsing: text)
  }

  /// An ISO 8601 instant with its offset, such as `2026-03-08T03:00:00-04:00`.
  static func instant(_ text: String) throws -> Date {
    let formatter = ISO8601DateFormatter()
    return try #require(formatter.date(from: text), "\(text) is not an ISO 8601 instant")
  }

  static func calendar(
    _ zone: String, daySwitchHour: Int = 0, firstWeekday: Weekday = .sunday
  ) throws -> DayCalendar {
    try DayCalendar(
      timeZone: try #require(TimeZone(identifier: zone)), daySwitchHour: daySwitchHour,
      firstWeekday: firstWeekday)
  }

  static func habit(
    _ name: String = "Stretch", reminder: Reminder, frequency: Frequency = .daily,
    archived: Bool = false, sortOrder: Int = 0, id: UUID = UUID()
  ) throws -> Habit {
    try Habit(
      id: id, name: name, createdDay: Day(ordinal: 0), frequency: frequency, reminder: reminder,
      archived: archived, sortOrder: sortOrder)
  }

  static func periodic(_ start: String, _ end: String, every: Int) throws -> Reminder {
    .periodic(start: try time(start), end: try time(end), everyHours: every)
  }
}
