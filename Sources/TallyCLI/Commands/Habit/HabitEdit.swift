import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally habit edit HABIT [--name N] [--weekly K | --daily | --weekdays mon,wed,fri] [--color HEX] [--icon I] [--group G]
/// [--created DAY] [--reminder R]`
struct HabitEdit: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit", abstract: "Change a habit's name, frequency, colour, icon, group, start or reminder.",
    discussion: "Only the options given change. An empty --icon or --group removes it.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit: its exact name, id, or the start of its id.")
  var habit: String

  @Option(help: ArgumentHelp("A new name.", valueName: "name"))
  var name: String?

  @Option(help: ArgumentHelp("Make it weekly: days a week to aim for, 1 to 6.", valueName: "k"))
  var weekly: Int?

  @Flag(help: "Make it daily.")
  var daily = false

  @OptionGroup var kind: HabitKindOptions

  @Flag(help: "Make it a yes/no habit again (only before any day is marked).")
  var yesNo = false

  @Option(help: ArgumentHelp("Colour as #RGB, #RRGGBB or #AARRGGBB.", valueName: "hex"))
  var color: String?

  @Option(help: ArgumentHelp("One emoji or a symbol name; empty removes it.", valueName: "icon"))
  var icon: String?

  @Option(help: ArgumentHelp("A group name; empty removes it.", valueName: "group"))
  var group: String?

  @Option(help: ArgumentHelp("The day the habit started.", valueName: "day"))
  var created: String?

  @Option(help: ArgumentHelp("none, a time like 08:30, or every N hours like 08:00-22:00/2h.", valueName: "when"))
  var reminder: String?

  @Flag(help: "Print the changed habit as JSON.")
  var json = false

  func validate() throws {
    if [daily, weekly != nil, kind.schedule != nil, kind.weekdays != nil].filter(\.self).count > 1 {
      throw UsageError("Give one of --daily, --weekly, --schedule and --weekdays.")
    }
    if yesNo && (kind.target != nil || kind.unit != nil || kind.atMost || kind.atLeast) {
      throw UsageError("--yes-no takes no --target, --unit, --at-most or --at-least.")
    }
    if name == nil && weekly == nil && !daily && color == nil && icon == nil && group == nil
      && created == nil && reminder == nil && kind.isEmpty && !yesNo
    {
      throw UsageError("Nothing to change: give at least one option, such as --name or --color.")
    }
    try checked { () throws(TallyCore.ValidationError) in
      if let name { _ = try Habit.validName(name) }
      if let weekly { _ = try HabitText.weekly(weekly) }
      if let color { _ = try HexColor(parsing: color) }
      _ = try Habit.validIcon(icon)
      _ = try Habit.validGroup(group)
      if let created { _ = try DayArgument(parsing: created) }
      if let reminder { _ = try HabitText.parseReminder(reminder) }
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habits = try await session.store.habits(for: session.user.id, includingArchived: true)
    var changed = try HabitLookup.find(habit, in: habits)
    if let name {
      let newName = try Habit.validName(name)
      try HabitRules.checkNameFree(newName, among: habits, renaming: changed.id)
      changed.name = newName
    }
    if let weekly { changed.frequency = try HabitText.weekly(weekly) }
    if daily { changed.frequency = .daily }
    if let schedule = try kind.parsedSchedule() { changed.frequency = schedule }
    changed.measure = yesNo ? nil : try kind.measure(over: changed.measure)
    if let description = kind.description { changed.description = description }
    if let color { changed.color = try HexColor(parsing: color) }
    if icon != nil { changed.icon = try Habit.validIcon(icon) }
    if group != nil { changed.group = try Habit.validGroup(group) }
    if let created {
      let today = try session.today
      let day = try DayArgument(parsing: created).days(today: today)[0]
      try HabitRules.checkCreatedDay(day, today: today)
      changed.createdDay = day
    }
    if let reminder { changed.reminder = try HabitText.parseReminder(reminder) }
    let stored = try await session.store.updateHabit(try changed.validated(), for: session.user.id)
    if json {
      try session.output.json(HabitJSON(stored))
    } else {
      session.output.line("Changed '\(stored.name)' (\(HabitLookup.shortID(stored.id))).")
    }
  }
}
