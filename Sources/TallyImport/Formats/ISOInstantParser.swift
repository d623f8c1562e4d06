import Foundation
import TallyCore

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
