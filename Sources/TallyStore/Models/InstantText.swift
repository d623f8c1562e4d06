import Foundation
import TallyCore

/// Instants as stored: ISO 8601 in UTC with milliseconds, `2026-03-08T06:30:00.000Z`.
///
/// Fixed width, so text order is time order and `sqlite3` shows something a person reads.
/// Written by hand from ``Day``'s civil-date arithmetic: no formatter, no locale, no zone.
/// The CLI and JSON output print instants the same way.
public enum InstantText {
  public static func text(_ date: Date) -> String {
    let ms = StoredInstant.milliseconds(date)
    let dayMs: Int64 = 86_400_000
    let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
    var rest = ms - days * dayMs
    let millis = rest % 1000
    rest /= 1000
    let (hours, minutes, seconds) = (rest / 3600, rest / 60 % 60, rest % 60)
    return "\(Day(ordinal: Int(days)))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2))"
      + ".\(pad(millis, 3))Z"
  }

  public static func date(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"),
      let day = Day(String(decoding: bytes[0..<10], as: UTF8.self)),
      let hours = number(bytes[11..<13]), hours < 24,
      let minutes = number(bytes[14..<16]), minutes < 60,
      let seconds = number(bytes[17..<19]), seconds < 60,
      let millis = number(bytes[20..<23])
    else { return nil }
    let ms =
      Int64(day.ordinal) * 86_400_000 + ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    return StoredInstant.date(milliseconds: ms)
  }

  /// Reads RFC 3339 with any offset, with or without fractional seconds, as people and other
  /// programs write it: `2026-03-08T09:30:00Z`, `2026-03-08T09:30:00.250+01:00`.
  public static func rfc3339(_ text: String) -> Date? {
    // A lower-case t or z is allowed by RFC 3339 and refused by the formatter.
    let normalized = text.trimmingCharacters(in: .whitespaces).uppercased()
    if let date = date(normalized) { return date }
    for options: ISO8601DateFormatter.Options in [
      [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
    ] {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = options
      if let date = formatter.date(from: normalized) { return date }
    }
    return nil
  }

  private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
    var value: Int64 = 0
    for byte in bytes {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    return value
  }

  static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
