import ArgumentParser
import TallyCore
import TallyStore
import TallyTMDB

struct ShowRefresh: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "refresh", abstract: "Fetch shows added from TMDB again: new episodes, dates and providers.")

  @OptionGroup var global: GlobalOptions
  @OptionGroup var tmdb: TMDBOptions

  @Argument(help: ArgumentHelp("One show; default every show added from TMDB.", valueName: "show"))
  var show: String?

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let sync = ShowSync(source: try tmdb.source(context), store: session.store)
    let reports: [ShowSyncReport]
    if let show {
      reports = [try await sync.refresh(showID: try await ShowLookup.find(show, in: session).id, for: session.user.id)]
    } else {
      reports = try await sync.refreshAll(for: session.user.id)
    }
    guard !reports.isEmpty else {
      session.output.line("None of your shows came from TMDB: add one with 'tally show add --tmdb ID'.")
      return
    }
    for report in reports {
      session.output.line("\(report.show.title): \(Sentence.count(report.episodesSaved, "episode")) with an air date.")
    }
    session.output.line(TMDBAttribution.text)
  }
}
