import ArgumentParser
import Foundation
import TallyAccounts
import TallyStore

/// `tally user password NAME`
struct UserPassword: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "password",
    abstract: "Set a user's password from standard input (a user made by the CLI has none).")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The user's name.", valueName: "name"))
  var name: String

  func run(in context: CommandContext) async throws {
    let password = try Self.readPassword(context)
    let opener = SessionOpener(options: global, context: context)
    let (_, store) = try opener.openStore()
    let user = try await store.user(named: name)
    try await AccountService(store: store).setPassword(password, for: user.id, at: try opener.now())
    context.standardOutput.line("Set the password of '\(user.name)'.")
  }

  /// The first line of standard input, checked before anything is opened or written.
  static func readPassword(_ context: CommandContext) throws -> String {
    guard let line = context.readLine(), !line.isEmpty else {
      throw CommandFailure(
        "No password on standard input: pipe it in, e.g. echo \"$PASSWORD\" | tally user add NAME.",
        exitCode: CommandFailure.usage)
    }
    try PasswordRule.check(line)
    return line
  }
}
