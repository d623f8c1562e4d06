import Foundation

/// How much of a measurable habit was done, in the habit's unit. Held exactly as a whole
/// number of thousandths (5.2 km is 5200), as Loop Habit Tracker stores its numbers, so sums
/// over years never drift and equal amounts compare equal.
public struct Amount: Hashable, Comparable, Sendable {
  public let thousandths: Int64

  public static let zero = Amount(thousandths: 0)
  /// One billion units: large enough for steps or money, small enough that decades of sums fit.
  public static let maximum = Amount(thousandths: 1_000_000_000_000)

  public init(thousandths: Int64) {
    self.thousandths = thousandths
  }

  /// The amount nearest `units`: a sum or an average worked out in doubles.
  public init(rounding units: Double) {
    thousandths = Int64((units * 1000).rounded())
  }

  /// A whole number of units.
  public init(_ units: Int) {
    thousandths = Int64(units) * 1000
  }

  public static func < (lhs: Amount, rhs: Amount) -> Bool { lhs.thousandths < rhs.thousandths }

  public static func + (lhs: Amount, rhs: Amount) -> Amount {
    Amount(thousandths: lhs.thousandths + rhs.thousandths)
  }

  public var doubleValue: Double { Double(thousandths) / 1000 }

  /// Checks the rules every amount obeys: at least 0 and at most ``maximum``.
  public func validated(field: String = "amount") throws(ValidationError) -> Amount {
    guard thousandths >= 0 else {
      throw ValidationError(field: field, rule: "must be 0 or more, not \(self)", kind: .negative)
    }
    guard self <= Amount.maximum else {
      throw ValidationError(
        field: field, rule: "must be at most \(Amount.maximum), not \(self)", kind: .tooLarge,
        values: ["max": "\(Amount.maximum)"])
    }
    return self
  }

  /// Reads a number from a JSON document: refused when negative, too large, or finer than a
  /// thousandth (which could not be kept exactly).
  public init(number: Double, field: String = "amount") throws(ValidationError) {
    guard number.isFinite, abs(number) <= Amount.maximum.doubleValue else {
      throw ValidationError(
        field: field, rule: "must be a number from 0 to \(Amount.maximum)", kind: .tooLarge,
        values: ["max": "\(Amount.maximum)"])
    }
    let thousandths = (number * 1000).rounded()
    guard thousandths / 1000 == number else {
      throw ValidationError(
        field: field, rule: "may have at most 3 decimal places, not \(number)", kind: .tooPrecise, values: ["max": "3"])
    }
    self = try Amount(thousandths: Int64(thousandths)).validated(field: field)
  }
}

extension Amount: CustomStringConvertible {
  /// `5`, `5.2`, `0.125`: no trailing zeros, a dot for the decimal point.
  public var description: String {
    let sign = thousandths < 0 ? "-" : ""
    let magnitude = thousandths.magnitude
    let whole = magnitude / 1000
    var fraction = String(magnitude % 1000)
    guard fraction != "0" else { return "\(sign)\(whole)" }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(whole).\(fraction)"
  }
}

extension Amount {
  /// Reads typed text such as `5`, `5.2` or `.5` (a comma works as the decimal point too).
  public init(parsing text: String, field: String = "amount") throws(ValidationError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("-") {
      throw ValidationError(field: field, rule: "must be 0 or more, not \(trimmed)", kind: .negative)
    }
    let parts = trimmed.split(separator: trimmed.contains(",") ? "," : ".", omittingEmptySubsequences: false)
    let digits = { (part: Substring) in part.allSatisfy { ("0"..."9").contains($0) } }
    guard (1...2).contains(parts.count), parts.allSatisfy(digits), trimmed.count > (parts.count - 1),
      parts[0].count <= 13
    else {
      throw ValidationError(
        field: field, rule: "must be a number such as 5 or 5.2, not '\(trimmed)'", kind: .notANumber,
        values: ["value": trimmed])
    }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 3 else {
      throw ValidationError(
        field: field, rule: "may have at most 3 decimal places, not \(trimmed)", kind: .tooPrecise, values: ["max": "3"])
    }
    let whole = Int64(parts[0]) ?? 0
    let padded = fraction + String(repeating: "0", count: 3 - fraction.count)
    self = try Amount(thousandths: whole * 1000 + (Int64(padded) ?? 0)).validated(field: field)
  }
}

// On the wire an amount is a JSON number (5.2), read with the rules above.
extension Amount: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      self = try Amount(
        number: container.decode(Double.self), field: decoder.codingPath.last?.stringValue ?? "amount")
    } catch let error as ValidationError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(doubleValue)
  }
}
