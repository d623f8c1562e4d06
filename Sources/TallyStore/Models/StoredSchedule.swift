import TallyCore

/// A habit's schedule and measure as every store keeps them in columns: `frequency` with
/// `target_per_week`, `schedule_times` and `schedule_days`; `kind` with `unit`, `target`
/// (thousandths of the unit) and `target_direction`. A weekday schedule is kept as a daily one
/// with `weekdays`, the days' bits (Sunday 1 … Saturday 64), so adding it widened no CHECK.
public struct StoredSchedule: Hashable, Sendable {
  public var frequency = "daily"
  public var targetPerWeek: Int?
  public var scheduleTimes: Int?
  public var scheduleDays: Int?
  public var kind = HabitKind.yesNo.rawValue
  public var unit: String?
  public var target: Int64?
  public var targetDirection: String?
  public var weekdays: Int?

  public init(
    frequency: String, targetPerWeek: Int?, scheduleTimes: Int?, scheduleDays: Int?, kind: String, unit: String?,
    target: Int64?, targetDirection: String?, weekdays: Int?
  ) {
    (self.frequency, self.targetPerWeek, self.scheduleTimes, self.scheduleDays, self.weekdays) =
      (frequency, targetPerWeek, scheduleTimes, scheduleDays, weekdays)
    (self.kind, self.unit, self.target, self.targetDirection) = (kind, unit, target, targetDirection)
  }

  public init(_ habit: Habit) {
    switch habit.frequency {
    case .daily: break
    case .weekly(let target): (frequency, targetPerWeek) = ("weekly", target)
    case .timesInDays(let times, let days): (frequency, scheduleTimes, scheduleDays) = ("timesInDays", times, days)
    case .monthly(let times): (frequency, scheduleTimes) = ("monthly", times)
    case .weekdays(let days): (frequency, weekdays) = ("daily", Int(days.bits))
    }
    kind = habit.kind.rawValue
    unit = habit.measure?.unit
    target = habit.measure?.target.thousandths
    targetDirection = habit.measure?.direction.rawValue
  }

  /// The schedule; a missing number reads as 0, which the habit's validation then refuses.
  public var schedule: Frequency {
    get throws(ValidationError) {
      switch frequency {
      case "weekly": return .weekly(targetPerWeek: targetPerWeek ?? 0)
      case "timesInDays": return .timesInDays(times: scheduleTimes ?? 0, days: scheduleDays ?? 0)
      case "monthly": return .monthly(timesPerMonth: scheduleTimes ?? 0)
      default:
        guard let weekdays else { return .daily }
        guard let bits = UInt8(exactly: weekdays) else {
          throw ValidationError(field: "weekdays", rule: "must be bits of 1 (Sunday) to 64 (Saturday), not \(weekdays)")
        }
        return .weekdays(try WeekdaySet(bits: bits))
      }
    }
  }

  /// The measure of a measurable habit, `nil` for a yes/no one.
  public func measure() throws(ValidationError) -> Measure? {
    guard kind == HabitKind.measurable.rawValue else { return nil }
    return try Measure(
      unit: unit ?? "", target: Amount(thousandths: target ?? 0),
      direction: TargetDirection(rawValue: targetDirection ?? "") ?? .atLeast)
  }
}
