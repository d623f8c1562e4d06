import Foundation
import TallyCore
import TallyHTTP

/// The add / edit habit form: the fields as typed, so a rejected form comes back exactly as
/// it was sent, and the habit they describe once every rule holds.
struct HabitForm: Decodable, Sendable {
  var name: String = ""
  var icon: String = ""
  var color: String = Habit.defaultColor.hex
  var group: String = ""
  var frequency: String = "daily"
  var target: String = "3"
  /// Any schedule as text (`3 in 10 days`, `2 a month`), used when `frequency` is `custom`.
  var schedule: String = "3 in 10 days"
  /// The weekdays ticked (`monday`, …), used when `frequency` is `weekdays`; each is a
  /// checkbox of its own, `on-monday`, so a plain form post carries them.
  var weekdays: Set<Weekday> = [.monday, .wednesday, .friday]
  /// `yesNo` or `measurable`, with the measure's fields.
  var kind: String = "yesNo"
  var goal: String = ""
  var unit: String = ""
  var direction: String = "atLeast"
  var about: String = ""
  var reminder: String = "none"
  var time: String = "09:00"
  var start: String = "08:00"
  var end: String = "22:00"
  var every: String = "2"

  /// The colours offered as swatches; any other hex can be typed.
  static let palette = [
    "#8B5CF6", "#A78BFA", "#EC4899", "#F43F5E", "#F97316", "#EAB308", "#22C55E", "#14B8A6",
    "#06B6D4", "#3B82F6",
  ]

  /// A wrong field, named as the form names it, with the sentence shown next to it.
  /// A refused form: the field to mark, the server's English sentence, and the rule when its
  /// kind has a sentence in every language.
  struct Invalid: Error, Sendable {
    let field: String
    let message: String
    var rule: ValidationError? = nil
  }

  init() {}

  init(_ habit: Habit) {
    name = habit.name
    icon = habit.icon ?? ""
    color = habit.color.hex
    group = habit.group ?? ""
    switch habit.frequency {
    case .daily: frequency = "daily"
    case .weekly(let target):
      frequency = "weekly"
      self.target = String(target)
    case .timesInDays, .monthly:
      frequency = "custom"
      schedule = habit.frequency.text
    case .weekdays(let days):
      frequency = "weekdays"
      weekdays = Set(days)
    }
    if let measure = habit.measure {
      kind = "measurable"
      goal = measure.target.description
      unit = measure.unit
      direction = measure.direction.rawValue
    }
    about = habit.description ?? ""
    switch habit.reminder {
    case .none: reminder = "none"
    case .single(let time):
      reminder = "single"
      self.time = time.description
    case .periodic(let start, let end, let every):
      reminder = "periodic"
      self.start = start.description
      self.end = end.description
      self.every = String(every)
    }
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let blank = HabitForm()
    name = try c.decodeIfPresent(String.self, forKey: .name) ?? blank.name
    icon = try c.decodeIfPresent(String.self, forKey: .icon) ?? blank.icon
    color = try c.decodeIfPresent(String.self, forKey: .color) ?? blank.color
    group = try c.decodeIfPresent(String.self, forKey: .group) ?? blank.group
    frequency = try c.decodeIfPresent(String.self, forKey: .frequency) ?? blank.frequency
    target = try c.decodeIfPresent(String.self, forKey: .target) ?? blank.target
    schedule = try c.decodeIfPresent(String.self, forKey: .schedule) ?? blank.schedule
    kind = try c.decodeIfPresent(String.self, forKey: .kind) ?? blank.kind
    goal = try c.decodeIfPresent(String.self, forKey: .goal) ?? blank.goal
    unit = try c.decodeIfPresent(String.self, forKey: .unit) ?? blank.unit
    direction = try c.decodeIfPresent(String.self, forKey: .direction) ?? blank.direction
    about = try c.decodeIfPresent(String.self, forKey: .about) ?? blank.about
    reminder = try c.decodeIfPresent(String.self, forKey: .reminder) ?? blank.reminder
    time = try c.decodeIfPresent(String.self, forKey: .time) ?? blank.time
    start = try c.decodeIfPresent(String.self, forKey: .start) ?? blank.start
    end = try c.decodeIfPresent(String.self, forKey: .end) ?? blank.end
    every = try c.decodeIfPresent(String.self, forKey: .every) ?? blank.every
    let ticked = try decoder.container(keyedBy: DayKey.self)
    weekdays = Set(Weekday.allCases.filter { ticked.contains(DayKey($0)) })
  }

  private enum CodingKeys: String, CodingKey {
    case name, icon, color, group, frequency, target, schedule, reminder, time, start, end, every
    case kind, goal, unit, direction, about
  }

  /// A weekday's checkbox: `on-monday`.
  struct DayKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ day: Weekday) { stringValue = "on-\(day.name)" }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// The values the form's fields describe, each checked by the engine's own rules.
  func values() throws(Invalid) -> (
    name: String, icon: String?, color: HexColor, group: String?, frequency: Frequency, reminder: Reminder,
    measure: Measure?, description: String?
  ) {
    do throws(ValidationError) {
      let name = try Habit.validName(name)
      let icon = try Habit.validIcon(icon.isEmpty ? nil : icon)
      let group = try Habit.validGroup(group.isEmpty ? nil : group)
      let color = try HexColor(parsing: color)
      let frequency: Frequency
      switch self.frequency {
      case "daily": frequency = .daily
      case "weekly":
        guard let target = Int(target) else {
          throw ValidationError(field: "target", rule: "must be a number of days from 1 to 6")
        }
        frequency = try Frequency.weekly(targetPerWeek: target).validated()
      case "custom": frequency = try Frequency(parsing: schedule)
      case "weekdays": frequency = .weekdays(try WeekdaySet(Array(weekdays)))
      default: throw ValidationError(field: "frequency", rule: "must be daily, weekly, weekdays or custom")
      }
      let reminder: Reminder
      switch self.reminder {
      case "none": reminder = .none
      case "single": reminder = .single(try WallTime(parsing: time, field: "time"))
      case "periodic":
        guard let every = Int(every) else {
          throw ValidationError(field: "every", rule: "must be a whole number of hours from 1 to 23")
        }
        reminder = try Reminder.periodic(
          start: try WallTime(parsing: start, field: "start"), end: try WallTime(parsing: end, field: "end"),
          everyHours: every
        ).validated()
      default: throw ValidationError(field: "reminder", rule: "must be none, single or periodic")
      }
      var measure: Measure?
      if kind == "measurable" {
        measure = try Measure(
          unit: unit, target: try Amount(parsing: goal, field: "goal"),
          direction: TargetDirection(rawValue: direction) ?? .atLeast)
      }
      let description = try Habit.validDescription(about)
      // The habit's own rules, so a measurable schedule that counts more than once a period
      // is told on the form.
      if measure != nil, frequency.times != 1 {
        throw ValidationError(
          field: "frequency", rule: "of a measurable habit counts once per period: the goal is the amount per period")
      }
      return (name, icon, color, group, frequency, reminder, measure, description)
    } catch {
      let field =
        switch error.field {
        case "everyHours": "every"
        case "targetPerWeek": "target"
        case "times", "days", "timesPerMonth": "schedule"
        case "target", "amount": "goal"
        case "description": "about"
        default: error.field
        }
      throw Invalid(field: field, message: "The \(field == "every" ? "interval" : field) \(error.rule).", rule: error)
    }
  }
}

extension HabitForm {
  /// The icons the form offers to pick from, each with its name's key under `icons.`.
  static let icons: [(icon: String, key: String)] = [
    (icon: "📚", key: "books"),
    (icon: "🏃", key: "running"),
    (icon: "💧", key: "water"),
    (icon: "🧘", key: "meditation"),
    (icon: "🏋️", key: "weights"),
    (icon: "🚴", key: "cycling"),
    (icon: "🏊", key: "swimming"),
    (icon: "🥗", key: "healthyFood"),
    (icon: "😴", key: "sleep"),
    (icon: "💊", key: "medicine"),
    (icon: "🦷", key: "teeth"),
    (icon: "✍️", key: "writing"),
    (icon: "🎸", key: "music"),
    (icon: "🧹", key: "cleaning"),
    (icon: "💰", key: "saving"),
    (icon: "🚭", key: "noSmoking"),
    (icon: "🌱", key: "plants"),
    (icon: "🐕", key: "dog"),
    (icon: "☀️", key: "morning"),
    (icon: "📵", key: "noPhone"),
    (icon: "🧠", key: "learning"),
    (icon: "★", key: "star"),
    (icon: "♥", key: "heart"),
    (icon: "✓", key: "tick"),
  ]
}
