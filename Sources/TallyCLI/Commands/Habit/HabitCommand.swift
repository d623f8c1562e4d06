import ArgumentParser

/// `tally habit …`: configuration only.
struct HabitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "habit",
    abstract: "Add, list, change, archive and delete habits.",
    discussion: "HABIT is a habit's exact name, its id, or the start of its id.",
    subcommands: [
      HabitAdd.self, HabitList.self, HabitEdit.self, HabitArchive.self, HabitUnarchive.self,
      HabitDelete.self,
    ])
}
