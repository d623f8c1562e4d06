import ArgumentParser

/// `tally user …`: configuration only.
struct UserCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "user",
    abstract: "Add the server's accounts, list them, set their passwords.",
    discussion: """
      Passwords are read from the first line of standard input, so they never appear in the \
      shell's history or the process list: echo "$PASSWORD" | tally user add ann
      """,
    subcommands: [UserAdd.self, UserList.self, UserPassword.self])
}
