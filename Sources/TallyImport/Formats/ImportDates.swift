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

/// ISO 8601 times (`2019-03-18T13:04:56Z`), with or without fractions of a second. The form
/// exports write is read by hand; anything else goes to Foundation's formatters, made once per
/// file: a formatter made, or even asked, per entry took most of an import's time.
struct ISOInstantParser {
  private let whole = ISO8601DateFormatter()
  private let fractional = ISO8601DateFormatter()

  init() {
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  }

  func instant(_ text: String) -> Date? {
    Self.common(Array(text.utf8)) ?? whole.date(from: text) ?? fractional.date(from: text)
  }

  /// `YYYY-MM-DDTHH:MM:SS`, an optional `.fraction`, then `Z`, `±HH:MM` or `±HHMM`.
  static func common(_ bytes: [UInt8]) -> Date? {
    func digits(_ from: Int, _ count: Int) -> Int? {
      guard from >= 0, from + count <= bytes.count else { return nil }
      var value = 0
      for index in from..<(from + count) {
        guard (48...57).contains(bytes[index]) else { return nil }
        value = value * 10 + Int(bytes[index] - 48)
      }
      return value
    }
    guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
      bytes[16] == 0x3A, let year = digits(0, 4), let month = digits(5, 2), let dayOfMonth = digits(8, 2),
      let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
      let day = Day(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 60
    else { return nil }
    var index = 19
    var fraction = 0.0
    if bytes[index] == 0x2E {
      var scale = 0.1
      index += 1
      let start = index
      while index < bytes.count, (48...57).contains(bytes[index]) {
        fraction += Double(bytes[index] - 48) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    guard index < bytes.count else { return nil }
    var offset = 0
    if bytes[index] == 0x5A {
      index += 1
    } else if bytes[index] == 0x2B || bytes[index] == 0x2D {
      let sign = bytes[index] == 0x2D ? -1 : 1
      let colon = index + 3 < bytes.count && bytes[index + 3] == 0x3A
      guard let hours = digits(index + 1, 2), let minutes = digits(index + (colon ? 4 : 3), 2), hours < 24, minutes < 60
      else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
      index += colon ? 6 : 5
    } else {
      return nil
    }
    guard index == bytes.count else { return nil }
    return Date(timeIntervalSince1970: Double(day.ordinal * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction)
  }
}
