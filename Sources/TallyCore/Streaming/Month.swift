/// A calendar month, the unit the streaming calendar pages through.
///
/// Stored as a count of months since January of year 0, so stepping by months is integer
/// arithmetic that carries across years in both directions.
public struct Month: Hashable, Comparable, Sendable {
  private let index: Int

  public var year: Int { index.floorDiv(12) }
  /// 1 = January … 12 = December.
  public var month: Int { index - year * 12 + 1 }

  /// `nil` when `month` is not 1–12.
  public init?(year: Int, month: Int) {
    guard (1...12).contains(month) else { return nil }
    index = year * 12 + month - 1
  }

  /// The month holding `day`; the Today button opens `Month(containing: today)`.
  public init(containing day: Day) {
    let (year, month, _) = day.components
    index = year * 12 + month - 1
  }

  private init(index: Int) {
    self.index = index
  }

  /// The month `months` after this one (before it when negative).
  public func adding(months: Int) -> Month {
    Month(index: index + months)
  }

  public var previous: Month { adding(months: -1) }
  public var next: Month { adding(months: 1) }

  public var firstDay: Day { Day(year: year, month: month, day: 1)! }
  public var lastDay: Day { Day(year: year, month: month, day: numberOfDays)! }
  public var numberOfDays: Int { Day.daysIn(month: month, year: year) }

  public func contains(_ day: Day) -> Bool {
    firstDay <= day && day <= lastDay
  }

  public static func < (lhs: Month, rhs: Month) -> Bool {
    lhs.index < rhs.index
  }
}

extension Int {
  /// Division rounding toward negative infinity, so month indexes before year 0 still map to
  /// the right year.
  fileprivate func floorDiv(_ divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor < 0) ? quotient - 1 : quotient
  }
}

// MARK: - Text form "YYYY-MM"

extension Month: LosslessStringConvertible {
  /// Parses exactly `YYYY-MM` (four-digit year, two-digit month), the form the CLI and API use.
  public init?(_ description: String) {
    let bytes = Array(description.utf8)
    guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
      bytes.indices.allSatisfy({ $0 == 4 || (48...57).contains(bytes[$0]) })
    else { return nil }
    let digits = bytes.map { Int($0) - 48 }
    let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
    self.init(year: year, month: digits[5] * 10 + digits[6])
  }

  /// Like ``init(_:)`` but with an error a person can act on.
  public init(parsing text: String, field: String = "month") throws(ValidationError) {
    guard let month = Month(text) else {
      throw ValidationError(field: field, rule: "must be a month written YYYY-MM like 2025-09, not '\(text)'")
    }
    self = month
  }

  public var description: String {
    let yearDigits = String(year)
    let paddedYear = String(repeating: "0", count: max(0, 4 - yearDigits.count)) + yearDigits
    return paddedYear + (month < 10 ? "-0" : "-") + String(month)
  }
}

extension Month: TextCodable {}
