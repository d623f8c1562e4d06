import Foundation

/// The user's rules for turning instants into days and days into weeks (SPEC 1).
///
/// Everything that depends on "now" takes the instant as an argument: this type never reads
/// the wall clock.
public struct DayCalendar: Sendable, Equatable {
  public static let daySwitchHours = 0...6

  public let timeZone: TimeZone
  /// Wall-clock hours before this one still belong to the previous day (0–6).
  public let daySwitchHour: Int
  public let firstWeekday: Weekday
  public let locale: Locale
  /// A Gregorian calendar in `timeZone`, used only at the edges (instant ↔ wall clock).
  public let gregorian: Calendar

  public init(
    timeZone: TimeZone,
    daySwitchHour: Int = 0,
    firstWeekday: Weekday = .sunday,
    locale: Locale = Locale(identifier: "en_US")
  ) throws(ValidationError) {
    guard DayCalendar.daySwitchHours.contains(daySwitchHour) else {
      throw ValidationError(
        field: "daySwitchHour", rule: "must be a whole hour from 0 to 6, not \(daySwitchHour)")
    }
    self.timeZone = timeZone
    self.daySwitchHour = daySwitchHour
    self.firstWeekday = firstWeekday
    self.locale = locale
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = timeZone
    gregorian.locale = locale
    self.gregorian = gregorian
  }

  public static func == (lhs: DayCalendar, rhs: DayCalendar) -> Bool {
    lhs.timeZone.identifier == rhs.timeZone.identifier && lhs.daySwitchHour == rhs.daySwitchHour
      && lhs.firstWeekday == rhs.firstWeekday && lhs.locale.identifier == rhs.locale.identifier
  }

  // MARK: Instants to days

  /// The day an instant belongs to: its wall-clock date in `timeZone`, or the date before when
  /// the wall-clock hour is below `daySwitchHour`. This is a wall-clock rule, so it holds
  /// unchanged across DST transitions.
  public func day(containing instant: Date) -> Day {
    let parts = gregorian.dateComponents([.year, .month, .day, .hour], from: instant)
    let date = Day(year: parts.year!, month: parts.month!, day: parts.day!)!
    return parts.hour! < daySwitchHour ? date.adding(days: -1) : date
  }

  // MARK: Weeks

  /// The latest day on or before `day` whose weekday is `firstWeekday`.
  public func startOfWeek(containing day: Day) -> Day {
    day.startOfWeek(firstWeekday: firstWeekday)
  }

  /// Every day from the start of `first`'s week to the end of `last`'s week, in order; empty
  /// when `first` is after `last`.
  public func fullWeeksCovering(_ first: Day, _ last: Day) -> [Day] {
    guard first <= last else { return [] }
    return Array(startOfWeek(containing: first)...startOfWeek(containing: last).adding(days: 6))
  }

  /// The weekdays in display order, starting at `firstWeekday`.
  public var orderedWeekdays: [Weekday] {
    (0..<7).map { Weekday(rawValue: (firstWeekday.rawValue - 1 + $0) % 7 + 1)! }
  }

  // MARK: Names

  /// The locale's names, kept once read (``CalendarNames``).
  private var names: CalendarNames { CalendarNames.of(locale) }

  /// The first character of the locale's short weekday name, upper-cased ("M" for Monday in
  /// en_US, "L" for lundi in fr_FR). Several weekdays may share a letter.
  public func dayLetter(for day: Day) -> String {
    dayLetter(for: day.weekday)
  }

  public func dayLetter(for weekday: Weekday) -> String {
    let name = names.shortWeekdays[weekday.rawValue - 1]
    return name.prefix(1).uppercased(with: locale)
  }

  /// The locale's full weekday name ("Monday").
  public func weekdayName(_ weekday: Weekday) -> String {
    names.weekdays[weekday.rawValue - 1]
  }

  /// The locale's short weekday name ("Mon"): unlike ``dayLetter(for:)-(Weekday)``, one per weekday.
  public func shortWeekdayName(_ weekday: Weekday) -> String {
    names.shortStandaloneWeekdays[weekday.rawValue - 1]
  }

  /// The locale's short month name ("Sep").
  public func shortMonthName(_ month: Int) -> String {
    names.shortStandaloneMonths[month - 1]
  }

  /// The locale's full month name ("September").
  public func monthName(_ month: Int) -> String {
    names.months[month - 1]
  }

  /// "Monday 1 September", or "Monday 1 September 2025" with the year, for labels a screen
  /// reader speaks.
  public func spokenName(of day: Day, includingYear: Bool = false) -> String {
    let name = "\(weekdayName(day.weekday)) \(day.day) \(monthName(day.month))"
    return includingYear ? "\(name) \(day.year)" : name
  }
}
