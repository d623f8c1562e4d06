import Foundation
import TallyCore
import TallyStore

/// Instants on the command line and in JSON: RFC 3339.
enum InstantFormat {
  /// `2026-03-08T06:30:00.000Z`: UTC, to the millisecond (the precision a store keeps), fixed
  /// width, exactly as stored.
  static func text(_ date: Date) -> String {
    InstantText.text(date)
  }

  /// Reads RFC 3339 with any offset, with or without fractional seconds:
  /// `2026-03-08T09:30:00Z`, `2026-03-08T09:30:00.250+01:00`.
  static func date(_ text: String) -> Date? {
    InstantText.rfc3339(text)
  }

  /// The wall-clock time `date` shows in `calendar`'s zone: `08:00`.
  static func wallClock(_ date: Date, in calendar: DayCalendar) -> String {
    let parts = calendar.gregorian.dateComponents([.hour, .minute], from: date)
    return (try? WallTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0))?.description ?? "00:00"
  }
}
