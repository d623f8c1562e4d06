import ArgumentParser
import Foundation
import TallyStore
import TallySync
import TallySyncClient

/// `tally sync`: sends this database's changes to its server and takes the server's.
struct SyncCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Exchange changes with the server both ways, then say what moved.")

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Only show the server, the last sync and what waits to be sent.")
  var status = false

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Keep syncing as the server's data changes, until interrupted.")
  var watch = false

  func validate() throws {
    if watch, status || json {
      throw UsageError("--watch runs until interrupted and prints a line per sync; it takes neither --status nor --json.")
    }
  }

  func run(in context: CommandContext) async throws {
    if status {
      return try await SyncStatus.print(global: global, json: json, context: context)
    }
    let session = try await SessionOpener(options: global, context: context).open()
    guard let remote = try await session.store.syncRemote(for: session.user.id) else {
      throw CommandFailure(SyncClientError.notAttached.description)
    }
    let transport = context.syncTransport(remote.url, remote.token)
    var client = SyncClient(store: session.store, user: session.user.id, transport: transport)
    if watch {
      client.clock = context.clock
      return try await SyncWatch(client: client, transport: transport, url: remote.url, output: session.output).run()
    }
    client.clock = { session.now }
    let summary: SyncSummary
    do {
      summary = try await client.sync()
    } catch let error as SyncTransportError {
      let waiting = try await session.store.outboxCount(for: session.user.id)
      throw CommandFailure(
        "Sync with \(remote.url) stopped: \(error). \(Sentence.count(waiting, "change")) still wait; "
          + "run 'tally sync' again.")
    }
    if json {
      return try session.output.json(SyncSummaryJSON(summary))
    }
    summary.lines.forEach(session.output.line)
  }
}

extension SyncSummary {
  /// What `tally sync` says of one sync.
  var lines: [String] {
    [
      "Sent \(Sentence.count(pushed, "change")), received \(Sentence.count(pulled, "change")); "
        + "\(appliedOnServer) changed the server, \(appliedHere) changed this database."
    ] + renamed.map { "Renamed \($0.kind.rawValue) '\($0.from)' to '\($0.to)': the name was taken." }
      + dropped.map { "Not applied: \($0.kind.rawValue) \($0.id): \($0.reason)." }
  }
}

/// `tally sync --status` and `tally remote show`.
enum SyncStatus {
  struct StatusJSON: Encodable {
    var url: String?
    var waiting: Int
    var lastSync: String?
    var lastError: String?
  }

  static func print(global: GlobalOptions, json: Bool, context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let remote = try await session.store.syncRemote(for: session.user.id)
    let waiting = try await session.store.outboxCount(for: session.user.id)
    let last = remote?.lastSync.map(InstantText.text)
    if json {
      return try session.output.json(
        StatusJSON(url: remote?.url, waiting: waiting, lastSync: last, lastError: remote?.lastError))
    }
    guard let remote else {
      return session.output.line("This database does not sync with a server ('tally remote add URL').")
    }
    session.output.line("Syncs with \(remote.url).")
    session.output.line("\(Sentence.count(waiting, "change")) waiting to be sent.")
    session.output.line(last.map { "Last sync: \($0)." } ?? "Not synced yet.")
    if let error = remote.lastError { session.output.line("The last sync failed: \(error)") }
  }
}

/// `tally sync --json`.
struct SyncSummaryJSON: Encodable {
  var pushed: Int
  var pulled: Int
  var appliedOnServer: Int
  var appliedHere: Int
  var renamed: [SyncRename]
  var dropped: [SyncNotice]

  init(_ summary: SyncSummary) {
    pushed = summary.pushed
    pulled = summary.pulled
    appliedOnServer = summary.appliedOnServer
    appliedHere = summary.appliedHere
    renamed = summary.renamed
    dropped = summary.dropped
  }
}
