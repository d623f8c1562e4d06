import Foundation
import TallyCore
import TallyStore

/// Instants on the command line and in JSON: RFC 3339.
enum InstantFormat {
  /// `2026-03-08T06:30:00.000Z`: UTC, to the millisecond (the precision a store keeps), fixed
  /// width. Written with ``Day``'s arithmetic, so no formatter, locale or zone is involved.
  static func text(_ date: Date) -> String {
    let ms = StoredInstant.milliseconds(date)
    let dayMs: Int64 = 86_400_000
    let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
    var rest = ms - days * dayMs
    let millis = rest % 1000
    rest /= 1000
    return "\(Day(ordinal: Int(days)))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):"
      + "\(pad(rest % 60, 2)).\(pad(millis, 3))Z"
  }

  /// Reads RFC 3339 with any offset, with or without fractional seconds:
  /// `2026-03-08T09:30:00Z`, `2026-03-08T09:30:00.250+01:00`.
  static func date(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    // A lower-case t or z is allowed by RFC 3339 and refused by the formatter.
    let normalized = trimmed.uppercased()
    for options: ISO8601DateFormatter.Options in [
      [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
    ] {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = options
      if let date = formatter.date(from: normalized) { return date }
    }
    return nil
  }

  /// The wall-clock time `date` shows in `calendar`'s zone: `08:00`.
  static func wallClock(_ date: Date, in calendar: DayCalendar) -> String {
    let parts = calendar.gregorian.dateComponents([.hour, .minute], from: date)
    return "\(pad(Int64(parts.hour ?? 0), 2)):\(pad(Int64(parts.minute ?? 0), 2))"
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
