import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

struct ShowList: TallyCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List your shows by title.")

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Print JSON only: an array of shows.")
  var json = false

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let shows = try await session.store.shows(for: session.user.id)
    if json {
      try session.output.json(shows.map(ShowJSON.init))
      return
    }
    guard !shows.isEmpty else {
      session.output.line("No shows yet: add one with 'tally show add TITLE' or 'tally show add --tmdb ID'.")
      return
    }
    var table = TextTable([.left, .left, .left, .left, .left])
    table.add(["ID", "TITLE", "STATUS", "TMDB", "PROVIDERS"])
    for show in shows {
      table.add([
        HabitLookup.shortID(show.id), show.title, show.status.rawValue, show.tmdbID.map(String.init) ?? "",
        show.providers.keys.sorted().map { country in
          "\(country): " + show.providers(in: country).map(\.name).joined(separator: ", ")
        }.joined(separator: "; "),
      ])
    }
    table.lines.forEach(session.output.line)
    if shows.contains(where: { $0.tmdbID != nil }) { session.output.line(TMDBAttribution.text) }
  }
}
