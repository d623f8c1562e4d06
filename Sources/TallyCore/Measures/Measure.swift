import Foundation

/// Whether a measurable habit's target is a floor ("run 5 km") or a ceiling ("at most 2 coffees").
public enum TargetDirection: String, Codable, Sendable, CaseIterable {
  case atLeast, atMost
}

/// What makes a habit measurable: the unit amounts are entered in, and the amount each period
/// of its schedule should reach (or stay within).
public struct Measure: Hashable, Sendable {
  /// "km", "pages"; may be empty, as in Loop.
  public var unit: String
  /// More than 0: the summed amount one period of the schedule aims at.
  public var target: Amount
  public var direction: TargetDirection

  public static let unitLengths = 0...30

  public init(unit: String, target: Amount, direction: TargetDirection = .atLeast) throws(ValidationError) {
    let trimmed = unit.trimmingCharacters(in: .whitespacesAndNewlines)
    guard Measure.unitLengths.contains(trimmed.count) else {
      throw ValidationError.tooLong("unit", max: Measure.unitLengths.upperBound, length: trimmed.count)
    }
    try NulFreeText.check(trimmed, field: "unit")
    guard target > .zero else {
      throw ValidationError(field: "target", rule: "must be more than 0, not \(target)", kind: .notPositive)
    }
    self.unit = trimmed
    self.target = try target.validated(field: "target")
    self.direction = direction
  }

  /// Whether a period whose amounts sum to `total` meets the goal.
  public func isMet(by total: Amount) -> Bool {
    switch direction {
    case .atLeast: total >= target
    case .atMost: total <= target
    }
  }

  /// 0–1: how far `total` goes towards the target; for *at most*, how far it stays within it
  /// (Loop's rule: full at or under the target, nothing at twice the target or more).
  public func share(of total: Amount) -> Double {
    let ratio = total.doubleValue / target.doubleValue
    switch direction {
    case .atLeast: return min(1, ratio)
    case .atMost: return min(1, max(0, 2 - ratio))
    }
  }
}

extension Measure: Codable {
  private enum CodingKeys: String, CodingKey { case unit, target, direction }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        unit: c.decodeIfPresent(String.self, forKey: .unit) ?? "",
        target: c.decode(Amount.self, forKey: .target),
        direction: c.decodeIfPresent(TargetDirection.self, forKey: .direction) ?? .atLeast)
    } catch let error as ValidationError {
      throw DecodingError.dataCorruptedError(
        forKey: error.field == "unit" ? .unit : .target, in: c, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(unit, forKey: .unit)
    try c.encode(target, forKey: .target)
    try c.encode(direction, forKey: .direction)
  }
}
