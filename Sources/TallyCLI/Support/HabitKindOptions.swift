import ArgumentParser
import TallyCore

/// The options `habit add` and `habit edit` share for schedules, measurable habits and the
/// description.
struct HabitKindOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Any schedule: daily, '4 a week', '3 in 10 days', '2 a month' or weekdays like 'mon,wed,fri'.",
      valueName: "schedule"))
  var schedule: String?

  @Option(help: ArgumentHelp("Only on these weekdays, like mon,wed,fri (1 to 6 days).", valueName: "days"))
  var weekdays: String?

  @Option(help: ArgumentHelp("Make it measurable: the amount each period aims at, like 5 or 2.5.", valueName: "number"))
  var target: String?

  @Option(help: ArgumentHelp("The unit amounts are in, like km or pages (measurable habits).", valueName: "unit"))
  var unit: String?

  @Flag(help: "The target is a ceiling: at most that much (measurable habits).")
  var atMost = false

  @Flag(help: "The target is a floor: at least that much (the default).")
  var atLeast = false

  @Option(help: ArgumentHelp("A description; empty removes it.", valueName: "text"))
  var description: String?

  func validate() throws {
    if atMost && atLeast { throw UsageError("Give --at-most or --at-least, not both.") }
    if schedule != nil && weekdays != nil { throw UsageError("Give --schedule or --weekdays, not both.") }
    _ = try parsedSchedule()
    _ = try parsedTarget()
    _ = try checked { () throws(TallyCore.ValidationError) in try Habit.validDescription(description) }
  }

  var isEmpty: Bool {
    schedule == nil && weekdays == nil && target == nil && unit == nil && !atMost && !atLeast && description == nil
  }

  func parsedSchedule() throws(UsageError) -> Frequency? {
    if let weekdays {
      return try checked { () throws(TallyCore.ValidationError) in .weekdays(try WeekdaySet(parsing: weekdays)) }
    }
    guard let schedule else { return nil }
    return try checked { () throws(TallyCore.ValidationError) in try Frequency(parsing: schedule) }
  }

  func parsedTarget() throws(UsageError) -> Amount? {
    guard let target else { return nil }
    return try checked { () throws(TallyCore.ValidationError) in try Amount(parsing: target, field: "target") }
  }

  /// The measure these options describe on top of `current` (nil: yes/no); a new target, unit
  /// or direction turns a yes/no habit measurable only with a target.
  func measure(over current: Measure?) throws(UsageError) -> Measure? {
    guard target != nil || unit != nil || atMost || atLeast else { return current }
    guard let target = try parsedTarget() ?? current?.target else {
      throw UsageError("A measurable habit needs --target, the amount each period aims at.")
    }
    let direction: TargetDirection = atMost ? .atMost : atLeast ? .atLeast : current?.direction ?? .atLeast
    return try checked { () throws(TallyCore.ValidationError) in
      try Measure(unit: unit ?? current?.unit ?? "", target: target, direction: direction)
    }
  }
}
