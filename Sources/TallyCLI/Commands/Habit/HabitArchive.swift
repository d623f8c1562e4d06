import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

/// `tally habit archive HABIT`: hides it from lists, statistics and reminders; keeps every entry.
struct HabitArchive: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "archive",
    abstract: "Archive a habit: hidden from lists, stats and reminders, every entry kept.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit: its exact name, id, or the start of its id.")
  var habit: String

  @Flag(help: "Print the habit as JSON.")
  var json = false

  func run(in context: CommandContext) async throws {
    try await HabitArchiving.set(true, habit: habit, global: global, json: json, context: context)
  }
}

/// Shared by `archive` and `unarchive`.
enum HabitArchiving {
  static func set(
    _ archived: Bool, habit reference: String, global: GlobalOptions, json: Bool,
    context: CommandContext
  ) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habit = try await HabitLookup.find(reference, in: session)
    let stored = try await session.store.setArchived(archived, habit: habit.id, for: session.user.id)
    if json {
      try session.output.json(HabitJSON(stored))
    } else if archived {
      session.output.line(
        "Archived '\(stored.name)'; its entries are kept. 'tally habit unarchive' brings it back.")
    } else {
      session.output.line("Brought back '\(stored.name)'.")
    }
  }
}
