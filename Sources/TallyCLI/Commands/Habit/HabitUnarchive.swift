import ArgumentParser

/// `tally habit unarchive HABIT`
struct HabitUnarchive: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "unarchive", abstract: "Bring an archived habit back.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit: its exact name, id, or the start of its id.")
  var habit: String

  @Flag(help: "Print the habit as JSON.")
  var json = false

  func run(in context: CommandContext) async throws {
    try await HabitArchiving.set(false, habit: habit, global: global, json: json, context: context)
  }
}
