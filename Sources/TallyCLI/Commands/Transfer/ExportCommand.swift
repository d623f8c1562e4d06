import ArgumentParser
import Foundation
import TallyCore
import TallyImport
import TallyStore
import TallyWire

/// What `export` writes: `import` reads the first two; iCalendar is for calendar apps only.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
  case json, csv, ics

  /// `--format`, else the file's extension, else JSON.
  static func resolve(_ format: ExportFormat?, path: String?) -> ExportFormat {
    if let format { return format }
    let path = path?.lowercased() ?? ""
    if path.hasSuffix(".ics") { return .ics }
    return path.hasSuffix(".csv") ? .csv : .json
  }
}

/// `tally export [--format json|csv|ics] [--out PATH]`
struct ExportCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write all your data as JSON (everything, for import), your habit entries as CSV, or your completed days as iCalendar.",
    discussion: "Without --out the data goes to standard output.")

  @OptionGroup var global: GlobalOptions

  @Option(
    help: """
      json (default; full fidelity), csv (habit entries only) or ics (each completed day as an \
      all-day calendar event). Default: from --out's extension.
      """)
  var format: ExportFormat?

  @Option(help: ArgumentHelp("The file to write; it is replaced if it exists.", valueName: "path"))
  var out: String?

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    // One read transaction: a write committed meanwhile is in the file entirely or not at all.
    let snapshot = try await session.store.snapshot(of: session.user.id)
    let text: String
    switch ExportFormat.resolve(format, path: out) {
    case .json:
      text = try JSONOutput.text(ExportDocument(user: session.user, snapshot: snapshot)) + "\n"
    case .csv:
      text = EntriesCSV.text(snapshot.habits.map { ($0.habit, $0.entries) })
    case .ics:
      text = CalendarFeeds.completions(snapshot.habits.map { ($0.habit, $0.entries) }, stamp: session.now)
    }
    guard let out else {
      session.output.write(text)
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
    } catch {
      throw CommandFailure(
        "The file \(out) could not be written: \(error.localizedDescription).",
        exitCode: CommandFailure.inputOutput)
    }
    let entries = snapshot.habits.reduce(0) { $0 + $1.entries.count }
    session.output.line(
      "Exported '\(session.user.name)' to \(out): \(Sentence.count(snapshot.habits.count, "habit")), "
        + "\(Sentence.count(entries, "entry", "entries")), "
        + "\(Sentence.count(snapshot.journal.count, "journal entry", "journal entries")), "
        + "\(Sentence.count(snapshot.chat.count, "chat message")), "
        + "\(Sentence.count(snapshot.shows.count, "show")).")
  }
}
