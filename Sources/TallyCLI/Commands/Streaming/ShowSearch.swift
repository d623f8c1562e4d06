import ArgumentParser
import Foundation
import TallyCore
import TallyTMDB

struct ShowSearch: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "search", abstract: "Search TMDB for a show; add one with 'tally show add --tmdb ID'.")

  @OptionGroup var global: GlobalOptions
  @OptionGroup var tmdb: TMDBOptions

  @Argument(help: ArgumentHelp("Words of the show's name.", valueName: "query"))
  var query: String

  @Flag(help: "Print JSON only: an array of results.")
  var json = false

  func run(in context: CommandContext) async throws {
    let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !query.isEmpty else { throw CommandFailure("Give a show's name to search for.", exitCode: CommandFailure.usage) }
    let results = try await tmdb.source(context).searchShows(query)
    if json {
      try context.standardOutput.json(results)
      return
    }
    guard !results.isEmpty else {
      context.standardOutput.line("TMDB knows no show matching '\(query)'.")
      return
    }
    var table = TextTable([.right, .left, .left])
    table.add(["TMDB", "NAME", "FIRST AIRED"])
    for result in results {
      table.add([String(result.tmdbId), result.name, result.firstAirDay?.description ?? ""])
    }
    table.lines.forEach(context.standardOutput.line)
    context.standardOutput.line(TMDBAttribution.text)
  }
}
