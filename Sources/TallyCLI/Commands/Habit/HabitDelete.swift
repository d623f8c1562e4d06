import ArgumentParser
import TallyCore
import TallyStore

/// `tally habit delete HABIT`: the only command that deletes habit data.
struct HabitDelete: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete",
    abstract: "Delete a habit with all its entries.",
    discussion: "This cannot be undone; 'tally habit archive' hides a habit and keeps its entries.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit: its exact name, id, or the start of its id.")
  var habit: String

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habit = try await HabitLookup.find(habit, in: session)
    let entries = try await session.store.entries(of: habit.id, for: session.user.id)
    try await session.store.deleteHabit(id: habit.id, for: session.user.id)
    session.output.line(
      "Deleted '\(habit.name)' and its \(Sentence.count(entries.count, "entry", "entries")).")
  }
}
