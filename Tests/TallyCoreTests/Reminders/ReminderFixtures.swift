import Foundation
import PropertyBased
import TallyCore
import Testing

/// Shorthands for reminder tests: days, times, instants and calendars from literals.
enum ReminderFixtures {
  static let zoneNames = [
    "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kolkata",
  ]

  /// Each zone with the days its wall clock jumps (or, for Kolkata, could but does not).
  static let transitionDays: [(zone: String, day: Day)] = [
    ("America/New_York", "2026-03-08"), ("America/New_York", "2026-11-01"),
    ("Europe/Berlin", "2026-03-29"), ("Europe/Berlin", "2026-10-25"),
    ("Australia/Lord_Howe", "2026-04-05"), ("Australia/Lord_Howe", "2026-10-04"),
    ("Pacific/Apia", "2011-12-29"), ("Pacific/Apia", "2011-12-30"), ("Pacific/Apia", "2011-12-31"),
    ("Asia/Kolkata", "2026-03-08"), ("Europe/Berlin", "2024-02-29"),
  ].map { ($0.0, Day($0.1)!) }

  /// A zone and date: a transition day of that zone more often than not, else any zone and
  /// any date from 2011 to 2030.
  static let zoneAndDate = zip(
    Gen.bool(0.6), Gen<(zone: String, day: Day)?>.element(of: transitionDays),
    Gen<String?>.element(of: zoneNames),
    Gen.int(in: Day("2011-01-01")!.ordinal...Day("2030-12-31")!.ordinal)
  ).map { onTransition, transition, zone, ordinal in
    onTransition ? (transition!.zone, transition!.day) : (zone!, Day(ordinal: ordinal))
  }

  /// An hour, half the time in the small hours where DST transitions happen.
  static let hour = zip(Gen.bool(), Gen.int(in: 0...3), Gen.int(in: 0...23)).map { small, early, any in
    small ? early : any
  }

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
