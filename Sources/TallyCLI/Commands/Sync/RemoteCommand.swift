import ArgumentParser
import Foundation
import TallyStore
import TallySync
import TallySyncClient

/// `tally remote …`: the server this database is a replica of (docs/sync.md).
struct RemoteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remote",
    abstract: "The server this database syncs with.",
    subcommands: [RemoteAdd.self, RemoteShow.self, RemoteRemove.self],
    defaultSubcommand: RemoteShow.self)
}

/// `tally remote add URL`, the API token on standard input.
struct RemoteAdd: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Make this database a replica of your account on a Tally server.",
    discussion: """
      Reads an API token of your account from standard input (make one in the web app's \
      Settings, or with POST /api/v1/tokens). Everything this database holds, except its \
      settings, is queued for the first 'tally sync'; the server's settings are taken.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The server's address, like https://tally.example.org.", valueName: "url"))
  var url: String

  func validate() throws {
    guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
      parsed.host?.isEmpty == false
    else {
      throw UsageError("'\(url)' is not a server address like https://tally.example.org.")
    }
  }

  func run(in context: CommandContext) async throws {
    guard let token = context.readLine()?.trimmingCharacters(in: .whitespaces), !token.isEmpty else {
      throw CommandFailure(
        "No API token on standard input: pipe it in, e.g. echo \"$TOKEN\" | tally remote add URL.",
        exitCode: CommandFailure.usage)
    }
    let session = try await SessionOpener(options: global, context: context).open()
    if let remote = try await session.store.syncRemote(for: session.user.id) {
      throw CommandFailure("This database already syncs with \(remote.url); 'tally remote remove' first.")
    }
    do {
      _ = try await context.syncTransport(url, token).pull(cursor: nil, limit: 1)
    } catch let error as SyncTransportError {
      throw CommandFailure("Could not use \(url) with that token. \(error)")
    }
    let queued = try await session.store.attachRemote(SyncRemote(url: url, token: token), for: session.user.id)
    session.output.line(
      "This database now syncs with \(url); \(Sentence.count(queued, "change")) wait for 'tally sync'.")
  }
}

/// `tally remote` / `tally remote show`.
struct RemoteShow: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show the server, the last sync and what waits to be sent.")

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Print JSON.")
  var json = false

  func run(in context: CommandContext) async throws {
    try await SyncStatus.print(global: global, json: json, context: context)
  }
}

/// `tally remote remove`: stops syncing; the data stays.
struct RemoteRemove: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Stop syncing with the server. Local data stays; unsent changes are forgotten.")

  @OptionGroup var global: GlobalOptions

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    guard let remote = try await session.store.syncRemote(for: session.user.id) else {
      throw CommandFailure("This database does not sync with a server.")
    }
    let waiting = try await session.store.outboxCount(for: session.user.id)
    try await session.store.detachRemote(for: session.user.id)
    session.output.line(
      "Stopped syncing with \(remote.url)"
        + (waiting > 0 ? "; \(Sentence.count(waiting, "unsent change")) were forgotten." : "."))
  }
}
