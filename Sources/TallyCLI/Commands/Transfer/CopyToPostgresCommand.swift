import ArgumentParser
import Foundation
import TallyPostgres
import TallySQLite
import TallyStore

/// `tally copy-to-postgres URL`
struct CopyToPostgresCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "copy-to-postgres",
    abstract: "Copy the whole SQLite database into an empty PostgreSQL one, and verify the copy.",
    discussion: """
      Every user, habit, entry, journal entry, chat message, show, token, session, sign-in \
      attempt, channel, delivery record and the sync feed are copied in one transaction, then \
      every table's count and every user's export are compared. Stop the server first: the file must not \
      change during the copy. Then serve the copy with 'tally serve --database URL'. See \
      docs/storage.md.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The empty PostgreSQL database, postgres://user:password@host:5432/db.", valueName: "url"))
  var url: String

  func validate() throws {
    guard PostgresLocation.isURL(url) else {
      throw ValidationError("The database to copy into must be a postgres:// URL, not '\(url)'.")
    }
  }

  func run(in context: CommandContext) async throws {
    let opener = SessionOpener(options: global, context: context)
    let (source, sourceStore) = try opener.openStore()
    let location = try PostgresLocation(url: url)
    // A one-off copy reads whole tables and whole exports back; the server's limit is for requests.
    let target = try await PostgresAppDatabase.open(location, timeout: .seconds(600))
    defer { target.close() }
    try await target.copy { table, sink in try await source.copyRows(of: table, into: sink) }
    let report = try await CopyVerification.verify(
      source: (source, sourceStore), target: (target, PostgresStore(target)))
    for line in report.lines { context.standardOutput.line(line) }
    guard report.problems.isEmpty else {
      throw CommandFailure(
        "The copy in \(location.description) differs from \(source.path ?? "the file"): "
          + report.problems.joined(separator: "; ") + ". Empty that database before trying again.")
    }
    context.standardOutput.line(
      "Copied \(source.path ?? "the database") into \(location.description) and verified it. "
        + "Serve it with: tally serve --database URL")
  }
}

/// Whether a copy holds what its source does: every table's row count, and every user's
/// whole export (``SnapshotRepository/snapshot(of:)``) read back through each store.
enum CopyVerification {
  struct Report {
    var lines: [String] = []
    var problems: [String] = []
  }

  static func verify(
    source: (database: AppDatabase, store: any Store), target: (database: PostgresAppDatabase, store: any Store)
  ) async throws -> Report {
    var report = Report()
    let before = try await source.database.rowCounts(DatabaseCopy.tables)
    let after = try await target.database.rowCounts(DatabaseCopy.tables)
    for table in DatabaseCopy.tables where (before[table] ?? 0) > 0 || (after[table] ?? 0) > 0 {
      report.lines.append("\(table): \(before[table] ?? 0) rows, \(after[table] ?? 0) copied")
      if before[table] != after[table] { report.problems.append("\(table) has \(after[table] ?? 0) rows, not \(before[table] ?? 0)") }
    }
    for user in try await source.store.users() {
      let copied = try? await target.store.snapshot(of: user.id)
      if try await source.store.snapshot(of: user.id) != copied {
        report.problems.append("the export of '\(user.name)' differs")
      }
    }
    return report
  }
}
