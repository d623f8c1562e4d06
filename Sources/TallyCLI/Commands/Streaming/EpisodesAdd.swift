import ArgumentParser
import TallyCore
import TallyStore

struct EpisodesAdd: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add an episode by hand, or change the one with its season and number.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The show.", valueName: "show"))
  var show: String

  @Option(help: "The season, 0 or more (0 holds specials).")
  var season: Int

  @Option(help: "The episode's number in its season.")
  var number: Int

  @Option(help: "The episode's title; default 'Episode N'.")
  var title: String?

  @Option(help: ArgumentHelp("The day it airs in your time zone, YYYY-MM-DD.", valueName: "day"))
  var airDay: String

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let found = try await ShowLookup.find(show, in: session)
    let episode = try Episode(
      showID: found.id, season: season, number: number, title: title ?? "Episode \(number)",
      airDay: try Day(parsing: airDay, field: "air day"))
    try await session.store.saveEpisodes([episode], for: session.user.id)
    session.output.line("\(found.title) \(season)x\(number) airs \(episode.airDay).")
  }
}
