/// A time of day on the wall clock, with no date and no zone.
public struct WallTime: Hashable, Comparable, Sendable {
  public let hour: Int
  public let minute: Int

  public init(hour: Int, minute: Int = 0) throws(ValidationError) {
    guard (0...23).contains(hour), (0...59).contains(minute) else {
      throw ValidationError(
        field: "time", rule: "must be a wall-clock time from 00:00 to 23:59, not \(hour):\(minute)", kind: .notATime,
        values: ["value": "\(hour):\(minute)"])
    }
    self.hour = hour
    self.minute = minute
  }

  /// Parses `H:MM` or `HH:MM`.
  public init(parsing text: String, field: String = "time") throws(ValidationError) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour),
      (0...59).contains(minute)
    else {
      throw ValidationError(field: field, rule: "must be a time like 08:30, not '\(text)'", kind: .notATime, values: ["value": text])
    }
    self.hour = hour
    self.minute = minute
  }

  public var minutesSinceMidnight: Int { hour * 60 + minute }

  public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
    lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
  }
}

extension WallTime: CustomStringConvertible {
  /// `HH:MM`, 24-hour.
  public var description: String {
    (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }
}

extension WallTime: TextCodable {}

/// When a habit asks for attention (SPEC 7).
public enum Reminder: Hashable, Sendable {
  case none
  case single(WallTime)
  /// Fires at `start`, `start + everyHours`, … while the time is at most `end`.
  case periodic(start: WallTime, end: WallTime, everyHours: Int)

  public static let intervalHours = 1...23

  public func validated() throws(ValidationError) -> Reminder {
    if case .periodic(let start, let end, let every) = self {
      guard start <= end else {
        throw ValidationError(
          field: "reminder", rule: "must start (\(start)) no later than it ends (\(end))", kind: .endsBeforeStart)
      }
      guard Reminder.intervalHours.contains(every) else {
        throw ValidationError(
          field: "everyHours", rule: "must be a whole number of hours from 1 to 23, not \(every)", kind: .outOfRange,
          values: ["min": "1", "max": "23", "value": "\(every)"])
      }
    }
    return self
  }

  /// The wall-clock times this reminder fires on a day it is due, in order.
  public var times: [WallTime] {
    switch self {
    case .none:
      return []
    case .single(let time):
      return [time]
    case .periodic(let start, let end, let every):
      return stride(
        from: start.minutesSinceMidnight, through: end.minutesSinceMidnight, by: every * 60
      ).map { try! WallTime(hour: $0 / 60, minute: $0 % 60) }
    }
  }
}

extension Reminder: Codable {
  private enum CodingKeys: String, CodingKey { case type, time, start, end, everyHours }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let reminder: Reminder
    switch try container.decode(String.self, forKey: .type) {
    case "none":
      reminder = .none
    case "single":
      reminder = .single(try container.decode(WallTime.self, forKey: .time))
    case "periodic":
      reminder = .periodic(
        start: try container.decode(WallTime.self, forKey: .start),
        end: try container.decode(WallTime.self, forKey: .end),
        everyHours: try container.decode(Int.self, forKey: .everyHours))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription: "'\(other)' is not a reminder; expected none, single or periodic")
    }
    do {
      self = try reminder.validated()
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: container.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .none:
      try container.encode("none", forKey: .type)
    case .single(let time):
      try container.encode("single", forKey: .type)
      try container.encode(time, forKey: .time)
    case .periodic(let start, let end, let every):
      try container.encode("periodic", forKey: .type)
      try container.encode(start, forKey: .start)
      try container.encode(end, forKey: .end)
      try container.encode(every, forKey: .everyHours)
    }
  }
}
