import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyTMDB
import TallyWire

struct ShowAdd: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add a show by hand, or from TMDB with its episodes and providers.",
    discussion: """
      With --tmdb ID the show's dated episodes and its subscription providers in every country \
      come from TMDB; adding the same id again updates the show rather than adding another.
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var tmdb: TMDBOptions

  @Argument(help: ArgumentHelp("The show's title (not with --tmdb).", valueName: "title"))
  var title: String?

  @Option(name: .customLong("tmdb"), help: ArgumentHelp("The show's TMDB id (see 'tally show search').", valueName: "id"))
  var tmdbID: Int?

  @Option(help: ArgumentHelp("watching, paused or finished; default watching.", valueName: "status"))
  var status: String?

  @Option(name: .customLong("provider"), help: ArgumentHelp("A service streaming it, COUNTRY:ID:NAME like US:8:Netflix; repeat for more.", valueName: "provider"))
  var providers: [String] = []

  @Flag(help: "Print JSON only: the show.")
  var json = false

  func validate() throws {
    guard (title == nil) != (tmdbID == nil) else {
      throw UsageError("Give either a TITLE or --tmdb ID.")
    }
    if let tmdbID, tmdbID <= 0 { throw UsageError("The --tmdb id must be a positive TMDB id, not \(tmdbID).") }
    if tmdbID != nil, !providers.isEmpty { throw UsageError("--provider is for shows added by hand; TMDB lists the providers.") }
    _ = try showStatus()
  }

  private func showStatus() throws -> ShowStatus? {
    guard let status else { return nil }
    guard let value = ShowStatus(rawValue: status.lowercased()) else {
      throw UsageError("The --status must be watching, paused or finished, not '\(status)'.")
    }
    return value
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    if let tmdbID {
      let report = try await ShowSync(source: try tmdb.source(context), store: session.store)
        .add(tmdbID: tmdbID, status: try showStatus(), for: session.user.id)
      if json {
        try session.output.json(ShowJSON(report.show))
        return
      }
      session.output.line(
        "\(report.created ? "Added" : "Updated") \(report.show.title) (\(HabitLookup.shortID(report.show.id))): "
          + "\(Sentence.count(report.episodesSaved, "episode")) with an air date"
          + (report.episodesWithoutDate > 0 ? ", \(report.episodesWithoutDate) without one yet" : "") + ".")
      session.output.line(TMDBAttribution.text)
      return
    }
    let show = try Show(
      id: UUID(), title: title ?? "", status: try showStatus() ?? .watching, providers: try ProviderArgument.parse(providers))
    try await session.store.saveShow(show, for: session.user.id)
    if json {
      try session.output.json(ShowJSON(show))
      return
    }
    session.output.line("Added \(show.title) (\(HabitLookup.shortID(show.id))).")
  }
}
