import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

struct EpisodesList: TallyCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "A show's episodes by season and number.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The show.", valueName: "show"))
  var show: String

  @Flag(help: "Print JSON only: an array of episodes.")
  var json = false

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let found = try await ShowLookup.find(show, in: session)
    let episodes = try await session.store.episodes(of: found.id, for: session.user.id)
    if json {
      try session.output.json(episodes.map(EpisodeJSON.init))
      return
    }
    guard !episodes.isEmpty else {
      session.output.line("\(found.title) has no episodes yet.")
      return
    }
    var table = TextTable([.left, .left, .left])
    table.add(["EPISODE", "AIRS", "TITLE"])
    for episode in episodes {
      table.add(["\(episode.season)x\(episode.number < 10 ? "0" : "")\(episode.number)", episode.airDay.description, episode.title])
    }
    table.lines.forEach(session.output.line)
  }
}
