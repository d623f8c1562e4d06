/// A calendar date in the proleptic Gregorian calendar: a year, a month and a day, with no
/// time and no zone.
///
/// A `Day` is stored as its distance in days from 1970-01-01, so arithmetic, comparison and
/// weekday lookups are integer operations and never consult `Calendar`. Instants become days
/// only through ``DayCalendar/day(containing:)``.
public struct Day: Hashable, Comparable, Sendable {
  /// Days since 1970-01-01 (negative before it).
  public let ordinal: Int

  public init(ordinal: Int) {
    self.ordinal = ordinal
  }

  /// The day with these components, or `nil` when they name no date (month 13, 30 February…).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= Day.daysIn(month: month, year: year) else {
      return nil
    }
    self.ordinal = Day.ordinal(year: year, month: month, day: day)
  }

  public var year: Int { components.year }
  public var month: Int { components.month }
  public var day: Int { components.day }

  /// Year, month and day, computed from the ordinal (Hinnant's `civil_from_days`).
  public var components: (year: Int, month: Int, day: Int) {
    let z = ordinal + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let index = ((ordinal + 4) % 7 + 7) % 7
    return Weekday(rawValue: index + 1)!
  }

  /// The first day of the week holding this one, for weeks that start on `firstWeekday`: the
  /// latest day on or before this one that falls on it.
  public func startOfWeek(firstWeekday: Weekday) -> Day {
    adding(days: -weekday.offset(from: firstWeekday))
  }

  public func adding(days: Int) -> Day {
    Day(ordinal: ordinal + days)
  }

  /// The number of days from `self` to `other` (positive when `other` is later).
  public func days(to other: Day) -> Int {
    other.ordinal - ordinal
  }

  public static func < (lhs: Day, rhs: Day) -> Bool {
    lhs.ordinal < rhs.ordinal
  }

  public static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Hinnant's `days_from_civil`.
  private static func ordinal(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

extension Day: Strideable {
  public func distance(to other: Day) -> Int { days(to: other) }
  public func advanced(by n: Int) -> Day { adding(days: n) }
}

// MARK: - Text form "YYYY-MM-DD"

extension Day: LosslessStringConvertible {
  /// Parses exactly `YYYY-MM-DD` (four-digit year, two-digit month and day).
  public init?(_ description: String) {
    // Read in place: a store reads thousands of days for one page, and copying each to an
    // array was most of the cost.
    var text = description
    guard let day = text.withUTF8(Day.parse) else { return nil }
    self = day
  }

  /// Parses `YYYY-MM-DD` from its UTF-8 bytes, for readers that hold a day inside longer text.
  public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    guard let day = Day.parse(bytes) else { return nil }
    self = day
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Day? {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
      return nil
    }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else {
      return nil
    }
    return Day(year: year, month: month, day: day)
  }

  public var description: String {
    let (year, month, day) = components
    return "\(Day.pad(year, 4))-\(Day.pad(month, 2))-\(Day.pad(day, 2))"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

extension Day: TextCodable {
  public init(parsing text: String, field: String = "day") throws(ValidationError) {
    guard let day = Day(text) else {
      throw ValidationError(
        field: field, rule: "must be a date written YYYY-MM-DD like 2026-03-08, not '\(text)'", kind: .notADate,
        values: ["value": text])
    }
    self = day
  }
}
