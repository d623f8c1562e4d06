import ArgumentParser
import Foundation
import TallyStore

/// `tally user list [--json]`
struct UserList: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the database's users and whether they can sign in.")

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Print JSON: [{id, name, role}], role absent for users without a password.")
  var json = false

  struct Row: Encodable {
    var id: UUID
    var name: String
    var role: AccountRole?
  }

  func run(in context: CommandContext) async throws {
    let (_, store) = try SessionOpener(options: global, context: context).openStore()
    var rows: [Row] = []
    for user in try await store.users() {
      rows.append(Row(id: user.id, name: user.name, role: try await store.credential(for: user.id)?.role))
    }
    if json {
      try context.standardOutput.json(rows)
      return
    }
    var table = TextTable([.left, .left, .left])
    for row in rows { table.add([row.name, row.role?.rawValue ?? "no password", row.id.storeText]) }
    table.lines.forEach { context.standardOutput.line($0) }
  }
}
