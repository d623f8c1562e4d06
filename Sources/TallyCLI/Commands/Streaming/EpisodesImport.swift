import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyTMDB

struct EpisodesImport: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "import", abstract: "Import episodes from an iCalendar file or URL, such as Sonarr's calendar feed.",
    discussion: """
      Each event's summary names an episode as 'Show Title - 1x02 - Episode Title' (or S01E02). \
      Episodes go to your show of that title, added when you have none; importing again updates \
      episodes by season and number rather than adding them twice. Timed events air on their \
      date in your time zone (02:00 UTC is the evening before in New York); all-day events on \
      their date.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("An .ics file, or an http(s) URL.", valueName: "path-or-url"))
  var source: String

  @Option(name: .customLong("provider"), help: ArgumentHelp("A service streaming the feed's shows, COUNTRY:ID:NAME like US:8:Netflix; repeat for more.", valueName: "provider"))
  var providers: [String] = []

  @Option(help: ArgumentHelp("The zone for event days and floating times; default yours.", valueName: "tz"))
  var timeZone: String?

  @Flag(help: "Print JSON only: what the import did.")
  var json = false

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let providers = try ProviderArgument.parse(providers)
    let zoneName = timeZone ?? session.user.settings.timeZone
    guard let zone = TimeZone(identifier: zoneName) else {
      throw CommandFailure("The --time-zone must be an IANA zone like Europe/Berlin, not '\(zoneName)'.", exitCode: CommandFailure.usage)
    }
    let text: String
    if let url = URL(string: source), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
      do {
        text = try await FeedFetcher.text(at: url)
      } catch let error as FeedFetchError {
        throw CommandFailure(error.description, exitCode: CommandFailure.inputOutput)
      }
    } else {
      guard let data = FileManager.default.contents(atPath: source) else {
        throw CommandFailure("There is no file '\(source)' to import.", exitCode: CommandFailure.inputOutput)
      }
      text = String(decoding: data, as: UTF8.self)
    }
    let feed = EpisodeFeed.episodes(from: try ICSParser.events(in: text, floatingTimeZone: zone), timeZone: zone)
    let report = try await session.store.importFeed(feed, providers: providers, for: session.user.id)
    if json {
      try session.output.json(report)
      return
    }
    session.output.line(
      "Imported \(Sentence.count(report.episodesSaved, "episode"))"
        + (report.showsAdded.isEmpty ? "." : "; new shows: \(report.showsAdded.joined(separator: ", ")).")
    )
    if !report.skipped.isEmpty {
      session.output.line(
        "Left out \(Sentence.count(report.skipped.count, "event")) naming no episode: "
          + report.skipped.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (report.skipped.count > 5 ? ", …" : ""))
    }
  }
}
