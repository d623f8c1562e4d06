import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally habit add NAME [--weekly K | --schedule S | --weekdays mon,wed,fri] [--target N [--unit U] [--at-most]]
/// [--description T] [--color HEX] [--icon I] [--group G] [--created DAY]`
struct HabitAdd: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add a habit and print it with its id.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit's name (1 to 100 characters, unique among your habits).")
  var name: String

  @Option(help: ArgumentHelp("Days a week to aim for, 1 to 6; without it the habit is daily.", valueName: "k"))
  var weekly: Int?

  @OptionGroup var kind: HabitKindOptions

  @Option(help: ArgumentHelp("Colour as #RGB, #RRGGBB or #AARRGGBB.", valueName: "hex"))
  var color: String?

  @Option(help: ArgumentHelp("One emoji or a symbol name like figure.walk.", valueName: "icon"))
  var icon: String?

  @Option(help: ArgumentHelp("A group name to list the habit under.", valueName: "group"))
  var group: String?

  @Option(help: ArgumentHelp("The day the habit starts (YYYY-MM-DD, today or yesterday); default today.", valueName: "day"))
  var created: String?

  @Option(help: ArgumentHelp("none, a time like 08:30, or every N hours like 08:00-22:00/2h.", valueName: "when"))
  var reminder: String?

  @Flag(help: "Print the new habit as JSON.")
  var json = false

  func validate() throws {
    if weekly != nil && (kind.schedule != nil || kind.weekdays != nil) {
      throw UsageError("Give --weekly, --schedule or --weekdays, only one.")
    }
    _ = try checked { () throws(TallyCore.ValidationError) in try Habit.validName(name) }
    _ = try fields()
    _ = try kind.measure(over: nil)
  }

  /// Every option, parsed by the engine's rules.
  func fields() throws(UsageError) -> (
    frequency: Frequency, color: HexColor, icon: String?, group: String?, created: DayArgument?,
    reminder: Reminder
  ) {
    try checked { () throws(TallyCore.ValidationError) in
      (
        try weekly.map(HabitText.weekly) ?? (try? kind.parsedSchedule()) ?? .daily,
        try color.map { text throws(TallyCore.ValidationError) in try HexColor(parsing: text) }
          ?? Habit.defaultColor,
        try Habit.validIcon(icon),
        try Habit.validGroup(group),
        try created.map { text throws(TallyCore.ValidationError) in try DayArgument(parsing: text) },
        try reminder.map(HabitText.parseReminder) ?? .none
      )
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let fields = try fields()
    let today = try session.today
    let createdDay = try fields.created?.days(today: today).first ?? today
    try HabitRules.checkCreatedDay(createdDay, today: today)
    let existing = try await session.store.habits(for: session.user.id, includingArchived: true)
    let name = try Habit.validName(name)
    try HabitRules.checkNameFree(name, among: existing)
    let habit = try Habit(
      id: UUID(), name: name, icon: fields.icon, color: fields.color, group: fields.group,
      createdDay: createdDay, frequency: fields.frequency, reminder: fields.reminder,
      measure: try kind.measure(over: nil),
      description: kind.description)
    let created = try await session.store.appendHabit(habit, for: session.user.id)
    if json {
      try session.output.json(HabitJSON(created))
    } else {
      session.output.line(
        "Added '\(created.name)', \(created.frequency.text)\(HabitText.goal(created)), "
          + "from \(created.createdDay): \(created.id.storeText)")
    }
  }
}
