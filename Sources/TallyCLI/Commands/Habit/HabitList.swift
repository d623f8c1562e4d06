import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

/// `tally habit list [--archived] [--json]`
struct HabitList: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List your habits in their order.")

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Include archived habits.")
  var archived = false

  @Flag(help: "Print JSON only: an array of habits.")
  var json = false

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habits = try await session.store.habits(for: session.user.id, includingArchived: archived)
    if json {
      try session.output.json(habits.map(HabitJSON.init))
      return
    }
    guard !habits.isEmpty else {
      session.output.line(
        archived ? "No habits yet: add one with 'tally habit add NAME'."
          : "No habits to list: add one with 'tally habit add NAME' (--archived shows archived ones).")
      return
    }
    var table = TextTable([.left, .left, .left, .left, .left, .left, .left])
    table.add(["ID", "NAME", "HOW OFTEN", "COLOR", "GROUP", "REMINDER", archived ? "STATE" : ""])
    for habit in habits {
      table.add([
        HabitLookup.shortID(habit.id), [habit.icon, habit.name].compactMap { $0 }.joined(separator: " "),
        habit.frequency.text, habit.color.hex, habit.group ?? "",
        HabitText.reminder(habit.reminder), habit.archived ? "archived" : "",
      ])
    }
    table.lines.forEach(session.output.line)
  }
}
