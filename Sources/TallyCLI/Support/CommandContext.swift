import Foundation
import TallyDelivery
import TallyServer
import TallySyncClient
import TallyTMDB

/// Where a command's text goes, and whether a person is looking at it.
public struct TextStream: Sendable {
  public var write: @Sendable (String) -> Void
  /// A terminal gets colour; a pipe or a file gets plain text.
  public var isTerminal: Bool

  public init(isTerminal: Bool = false, write: @escaping @Sendable (String) -> Void) {
    self.write = write
    self.isTerminal = isTerminal
  }

  /// Writes `text` and a newline.
  public func line(_ text: String = "") {
    write(text + "\n")
  }
}

/// Everything a command may learn from outside its arguments: the environment, the streams
/// and the clock. `main` passes the process's; tests pass their own, so a test runs exactly
/// what a person runs, against a temporary database, without spawning a process.
public struct CommandContext: Sendable {
  public var environment: [String: String]
  public var standardOutput: TextStream
  public var standardError: TextStream
  /// The wall clock, read once per command when neither `--now` nor `TALLY_NOW` fixes it.
  public var clock: @Sendable () -> Date
  /// The machine's zone, given to a user created on first use when `TZ` names none.
  public var systemTimeZone: String
  /// One line of standard input without its newline, `nil` at its end (`--password-stdin`).
  public var readLine: @Sendable () -> String?
  /// Where `tally show search/add --tmdb/refresh` get shows; `nil` builds a TMDB client from
  /// the options and environment. Tests put a fake here.
  public var showSource: (any ShowSource)?
  /// Sends `reminders test`'s POST; tests point it at a local receiver or a fake.
  public var webhookTransport: any WebhookTransport
  /// How `tally sync` reaches a server from its URL and token; HTTP unless a test says.
  public var syncTransport: @Sendable (_ url: String, _ token: String) -> any LiveSyncTransport = { url, token in
    HTTPSyncTransport(baseURL: url, token: token)
  }
  /// What the command opened, to close when it ends.
  public var openDatabases = OpenDatabases()

  public init(
    environment: [String: String],
    standardOutput: TextStream,
    standardError: TextStream,
    clock: @escaping @Sendable () -> Date,
    systemTimeZone: String,
    readLine: @escaping @Sendable () -> String? = { nil },
    webhookTransport: any WebhookTransport = HTTPWebhookTransport()
  ) {
    self.environment = environment
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.clock = clock
    self.systemTimeZone = systemTimeZone
    self.readLine = readLine
    self.webhookTransport = webhookTransport
  }

  /// The running process's environment, streams, clock and zone.
  public static func process() -> CommandContext {
    CommandContext(
      environment: ProcessInfo.processInfo.environment,
      standardOutput: TextStream(isTerminal: isatty(STDOUT_FILENO) != 0) { text in
        FileHandle.standardOutput.write(Data(text.utf8))
      },
      standardError: TextStream(isTerminal: isatty(STDERR_FILENO) != 0) { text in
        FileHandle.standardError.write(Data(text.utf8))
      },
      clock: { Date() },
      systemTimeZone: TimeZone.current.identifier,
      readLine: { Swift.readLine(strippingNewline: true) })
  }
}
