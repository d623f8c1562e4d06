/// How often a habit is meant to be done: `times` in each period of its schedule.
public enum Frequency: Hashable, Sendable {
  case daily
  /// `targetPerWeek` completed days per week, 1–6 (7 would be daily).
  case weekly(targetPerWeek: Int)
  /// `times` completed days in each block of `days` days counted from the habit's start
  /// (Loop's general form, "3 times in 10 days").
  case timesInDays(times: Int, days: Int)
  /// `timesPerMonth` completed days in each calendar month.
  case monthly(timesPerMonth: Int)
  /// Every day whose weekday is in the set (Mon/Wed/Fri); the other days are neutral unless
  /// completed (SPEC 2, docs/date-model.md).
  case weekdays(WeekdaySet)

  public static let weeklyTargets = 1...6
  public static let blockLengths = 2...365
  public static let monthlyTargets = 1...28

  public func validated() throws(ValidationError) -> Frequency {
    switch self {
    case .daily:
      break
    case .weekly(let target):
      guard Frequency.weeklyTargets.contains(target) else {
        throw ValidationError(
          field: "targetPerWeek", rule: "must be from 1 to 6 (7 a week is daily), not \(target)", kind: .outOfRange,
          values: ["min": "1", "max": "6", "value": "\(target)"])
      }
    case .timesInDays(let times, let days):
      guard Frequency.blockLengths.contains(days) else {
        throw ValidationError(
          field: "days", rule: "must be from 2 to 365, not \(days)", kind: .outOfRange,
          values: ["min": "2", "max": "365", "value": "\(days)"])
      }
      guard (1..<days).contains(times) else {
        throw ValidationError(
          field: "times",
          rule: "must be from 1 to \(days - 1) in \(days) days (\(days) would be daily), not \(times)", kind: .outOfRange,
          values: ["min": "1", "max": "\(days - 1)", "value": "\(times)"])
      }
    case .monthly(let times):
      guard Frequency.monthlyTargets.contains(times) else {
        throw ValidationError(
          field: "timesPerMonth", rule: "must be from 1 to 28, not \(times)", kind: .outOfRange,
          values: ["min": "1", "max": "28", "value": "\(times)"])
      }
    case .weekdays:
      // A WeekdaySet cannot be built breaking its rules.
      break
    }
    return self
  }

  /// Completed days one period asks for.
  public var times: Int {
    switch self {
    case .daily: 1
    case .weekly(let target): target
    case .timesInDays(let times, _): times
    case .monthly(let times): times
    case .weekdays: 1
    }
  }

  /// A period's length in days for the score's sliding window; a month counts as 30, as in Loop.
  public var windowDays: Int {
    switch self {
    case .daily: 1
    case .weekly: 7
    case .timesInDays(_, let days): days
    case .monthly: 30
    case .weekdays: 1
    }
  }

  public var streakUnit: StreakUnit {
    switch self {
    case .daily, .weekdays: .day
    case .weekly: .week
    case .timesInDays: .period
    case .monthly: .month
    }
  }

  /// Whether `day` is one the schedule asks for: every day but those outside a weekday set.
  @inline(__always)
  public func isScheduled(on day: Day) -> Bool {
    guard case .weekdays(let days) = self else { return true }
    return days.contains(day.weekday)
  }

  /// The first and last day of the period holding `day`. Blocks of `timesInDays` are counted
  /// from `anchor` (the habit's tracking start).
  public func period(containing day: Day, anchor: Day, firstWeekday: Weekday) -> ClosedRange<Day> {
    switch self {
    case .daily, .weekdays:
      return day...day
    case .weekly:
      let start = day.startOfWeek(firstWeekday: firstWeekday)
      return start...start.adding(days: 6)
    case .timesInDays(_, let length):
      let offset = anchor.days(to: day)
      let index = offset >= 0 ? offset / length : -((-offset + length - 1) / length)
      let start = anchor.adding(days: index * length)
      return start...start.adding(days: length - 1)
    case .monthly:
      let (year, month, date) = day.components
      let start = day.adding(days: 1 - date)
      return start...start.adding(days: Day.daysIn(month: month, year: year) - 1)
    }
  }
}

/// What a streak counts: days, weeks, months, or blocks of a "k times in n days" schedule.
public enum StreakUnit: String, Codable, Sendable, CaseIterable {
  case day, week, month, period
}

extension Frequency: Codable {
  private enum CodingKeys: String, CodingKey { case type, targetPerWeek, times, days, timesPerMonth, weekdays }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let decoded: Frequency
    let key: CodingKeys
    switch try container.decode(String.self, forKey: .type) {
    case "daily":
      self = .daily
      return
    case "weekly":
      decoded = .weekly(targetPerWeek: try container.decode(Int.self, forKey: .targetPerWeek))
      key = .targetPerWeek
    case "timesInDays":
      decoded = .timesInDays(
        times: try container.decode(Int.self, forKey: .times), days: try container.decode(Int.self, forKey: .days))
      key = .times
    case "monthly":
      decoded = .monthly(timesPerMonth: try container.decode(Int.self, forKey: .timesPerMonth))
      key = .timesPerMonth
    case "weekdays":
      self = .weekdays(try container.decode(WeekdaySet.self, forKey: .weekdays))
      return
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription: "'\(other)' is not a frequency; expected daily, weekly, timesInDays, monthly or weekdays")
    }
    do {
      self = try decoded.validated()
    } catch {
      throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
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
    case .timesInDays(let times, let days):
      try container.encode("timesInDays", forKey: .type)
      try container.encode(times, forKey: .times)
      try container.encode(days, forKey: .days)
    case .monthly(let times):
      try container.encode("monthly", forKey: .type)
      try container.encode(times, forKey: .timesPerMonth)
    case .weekdays(let days):
      try container.encode("weekdays", forKey: .type)
      try container.encode(days, forKey: .weekdays)
    }
  }
}
