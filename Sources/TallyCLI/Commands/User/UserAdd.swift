import ArgumentParser
import Foundation
import TallyAccounts
import TallyStore

/// `tally user add NAME [--owner] [--json]`
struct UserAdd: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Add an account that can sign in to 'tally serve'; the password comes from standard input.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The name the person signs in with.", valueName: "name"))
  var name: String

  @Flag(help: "Make the account the server's owner (only when it has none).")
  var owner = false

  @Flag(help: "Print the new account as JSON.")
  var json = false

  func run(in context: CommandContext) async throws {
    let password = try UserPassword.readPassword(context)
    let opener = SessionOpener(options: global, context: context)
    let (_, store) = try opener.openStore()
    let accounts = AccountService(store: store)
    let user = try await accounts.addUser(
      name: name, password: password, role: owner ? .owner : .member,
      settings: opener.defaultSettings(), at: try opener.now())
    let row = UserList.Row(id: user.id, name: user.name, role: owner ? .owner : .member)
    if json {
      try context.standardOutput.json(row)
    } else {
      context.standardOutput.line("Added \(row.role?.rawValue ?? "member") '\(user.name)' (\(user.id.storeText)).")
    }
  }
}
