/// How often a habit is meant to be done.
public enum Frequency: Hashable, Sendable {
  case daily
  /// `targetPerWeek` completed days per week, 1–6 (7 would be daily).
  case weekly(targetPerWeek: Int)

  public static let weeklyTargets = 1...6

  public func validated() throws(ValidationError) -> Frequency {
    if case .weekly(let target) = self, !Frequency.weeklyTargets.contains(target) {
      throw ValidationError(
        field: "targetPerWeek", rule: "must be from 1 to 6 (7 a week is daily), not \(target)")
    }
    return self
  }

  public var streakUnit: StreakUnit {
    switch self {
    case .daily: .day
    case .weekly: .week
    }
  }
}

/// Whether a streak counts days or weeks.
public enum StreakUnit: String, Codable, Sendable {
  case day, week
}

extension Frequency: Codable {
  private enum CodingKeys: String, CodingKey { case type, targetPerWeek }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .type) {
    case "daily":
      self = .daily
    case "weekly":
      let target = try container.decode(Int.self, forKey: .targetPerWeek)
      do {
        self = try Frequency.weekly(targetPerWeek: target).validated()
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .targetPerWeek, in: container, debugDescription: error.description)
      }
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription: "'\(other)' is not a frequency; expected daily or weekly")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .daily:
      try container.encode("daily", forKey: .type)
    case .weekly(let target):
      try container.encode("weekly", forKey: .type)
      try container.encode(target, forKey: .targetPerWeek)
    }
  }
}
