import Foundation
import TallyCore

/// The journal and Today view rules computed the long way: raw entry and message lists
/// searched again for every day, days stepped one at a time with Foundation's calendar, and
/// hit-testing by checking every cell. Property tests compare the engine against these.
public enum ReferenceJournal {
  /// Whether some user message is filed under `day`, by searching every message.
  public static func hasChat(_ day: Day, in messages: [ChatMessage]) -> Bool {
    messages.contains { $0.role == .user && $0.day == day }
  }

  /// Walks back from yesterday with Foundation's day arithmetic; a date the zone never had
  /// is passed over, any other date without chat ends the run.
  public static func streak(
    messages: [ChatMessage], today: Day, timeZone: TimeZone, daySwitchHour: Int
  ) -> Int {
    var length = 0
    var day = ReferenceCalendar.previousDay(today)
    while true {
      if hasChat(day, in: messages) {
        length += 1
      } else if dayExists(day, timeZone: timeZone, daySwitchHour: daySwitchHour) {
        return length
      }
      day = ReferenceCalendar.previousDay(day)
    }
  }

  /// Asks the formatter-based day rule about every quarter hour from two UTC days before the
  /// date to three after, and reports whether any of them lands on it.
  public static func dayExists(_ day: Day, timeZone: TimeZone, daySwitchHour: Int) -> Bool {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let start = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day - 2))!
    return (0..<(5 * 96)).contains { quarter in
      let instant = start.addingTimeInterval(Double(quarter) * 900)
      return ReferenceCalendar.day(containing: instant, timeZone: timeZone, daySwitchHour: daySwitchHour) == day
    }
  }

  /// The grid's days: start at today + 4 and step back one day at a time until the grid is
  /// full, then read them in order.
  public static func gridDays(columns: Int, rows: Int, today: Day) -> [Day] {
    var days = [ReferenceCalendar.adding(4, to: today)]
    while days.count < columns * rows {
      days.append(ReferenceCalendar.previousDay(days.last!))
    }
    return days.reversed()
  }

  /// The date row's 33 days, stepped forward from 30 days before today.
  public static func dateRowDays(today: Day) -> [Day] {
    var days = [ReferenceCalendar.adding(-30, to: today)]
    while days.count < 33 {
      days.append(ReferenceCalendar.adding(1, to: days.last!))
    }
    return days
  }

  /// Days in the date row with chat and with an entry, by filtering the raw lists.
  public static func headerCounts(
    entries: [JournalEntry], messages: [ChatMessage], today: Day
  ) -> (chats: Int, entries: Int) {
    let window = dateRowDays(today: today)
    let chats = window.filter { hasChat($0, in: messages) }.count
    let entryCount = window.filter { day in entries.contains { $0.day == day } }.count
    return (chats, entryCount)
  }

  /// The cell whose slot (its circle plus half the spacing on every side) holds the point,
  /// found by trying every cell.
  public static func cell(
    at point: GridPoint, columns: Int, rows: Int, spacing: Double, gridLeft: Double
  ) -> Int? {
    let pitch = 22 + spacing
    for row in 0..<rows {
      for column in 0..<columns {
        let left = gridLeft - spacing / 2 + Double(column) * pitch
        let top = -spacing / 2 + Double(row) * pitch
        if point.x >= left, point.x < left + pitch, point.y >= top, point.y < top + pitch {
          return row * columns + column
        }
      }
    }
    return nil
  }
}
