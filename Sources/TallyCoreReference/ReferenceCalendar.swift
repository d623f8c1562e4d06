import Foundation
import TallyCore

/// Day and week rules computed the long way, through Foundation's formatters and calendars,
/// with none of `DayCalendar`'s arithmetic. Property tests compare the two.
public enum ReferenceCalendar {
  /// Formats the instant's wall clock as text in the zone, reads the text back, and steps back
  /// one date when the hour is before the switch hour.
  public static func day(containing instant: Date, timeZone: TimeZone, daySwitchHour: Int) -> Day {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyy-MM-dd HH"
    let text = formatter.string(from: instant)
    let date = Day(String(text.prefix(10)))!
    let hour = Int(text.suffix(2))!
    return hour < daySwitchHour ? previousDay(date) : date
  }

  /// The day before, by Foundation's calendar arithmetic at noon UTC.
  public static func previousDay(_ day: Day) -> Day {
    adding(-1, to: day)
  }

  public static func adding(_ days: Int, to day: Day) -> Day {
    let calendar = utcCalendar
    let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
    let moved = calendar.date(byAdding: .day, value: days, to: noon)!
    let parts = calendar.dateComponents([.year, .month, .day], from: moved)
    return Day(year: parts.year!, month: parts.month!, day: parts.day!)!
  }

  public static func weekday(of day: Day) -> Weekday {
    let calendar = utcCalendar
    let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
    return Weekday(rawValue: calendar.component(.weekday, from: noon))!
  }

  /// Walks back one day at a time until the weekday matches.
  public static func startOfWeek(containing day: Day, firstWeekday: Weekday) -> Day {
    var current = day
    while weekday(of: current) != firstWeekday {
      current = previousDay(current)
    }
    return current
  }

  public static func fullWeeksCovering(_ first: Day, _ last: Day, firstWeekday: Weekday) -> [Day] {
    guard first <= last else { return [] }
    var end = last
    while weekday(of: adding(1, to: end)) != firstWeekday {
      end = adding(1, to: end)
    }
    var days: [Day] = []
    var current = startOfWeek(containing: first, firstWeekday: firstWeekday)
    while current <= end {
      days.append(current)
      current = adding(1, to: current)
    }
    return days
  }

  static let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
}
