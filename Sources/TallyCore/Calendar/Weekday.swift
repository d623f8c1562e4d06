/// A day of the week, numbered as Foundation's `Calendar` numbers them (Sunday = 1).
public enum Weekday: Int, CaseIterable, Codable, Sendable, Comparable {
  case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

  /// The lowercase English name, as used in settings, the CLI and JSON.
  public var name: String {
    switch self {
    case .sunday: "sunday"
    case .monday: "monday"
    case .tuesday: "tuesday"
    case .wednesday: "wednesday"
    case .thursday: "thursday"
    case .friday: "friday"
    case .saturday: "saturday"
    }
  }

  /// Accepts a name in any case (`"Monday"`, `"monday"`).
  public init?(name: String) {
    guard let match = Weekday.allCases.first(where: { $0.name == name.lowercased() }) else {
      return nil
    }
    self = match
  }

  /// How many days `self` lies after `first` in a week that starts on `first` (0…6).
  public func offset(from first: Weekday) -> Int {
    (rawValue - first.rawValue + 7) % 7
  }

  public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let weekday = Weekday(name: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is not a weekday; expected sunday … saturday")
    }
    self = weekday
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
