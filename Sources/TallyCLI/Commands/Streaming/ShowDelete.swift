import ArgumentParser
import TallyCore
import TallyStore

struct ShowDelete: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", abstract: "Delete a show with its episodes and providers.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The show.", valueName: "show"))
  var show: String

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let found = try await ShowLookup.find(show, in: session)
    try await session.store.deleteShow(id: found.id, for: session.user.id)
    session.output.line("Deleted \(found.title).")
  }
}
