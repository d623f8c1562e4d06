import ArgumentParser
import Foundation
import TallyHTTP
import TallyPostgres
import TallyPush
import TallyServer

/// `tally serve [--host 127.0.0.1] [--port 8080] …`
struct ServeCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the web app and the JSON API on this database.",
    discussion: """
      Runs until SIGTERM or SIGINT, then finishes the requests in flight. The first visit to \
      a new server creates its owner account; more accounts come from the owner ('tally user \
      add' or the API), unless --allow-sign-up opens sign-up. Every option can also come from \
      the environment variable named in its help. See docs/server.md.
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var tmdb: TMDBOptions
  @OptionGroup var oidc: OIDCOptions

  @Option(
    help: ArgumentHelp(
      "Serve a PostgreSQL database instead of the SQLite file ($TALLY_DATABASE_URL).",
      discussion: "postgres://user:password@host:5432/database; several servers may share one. See docs/storage.md.",
      valueName: "url"))
  var database: String?

  @Option(
    help: ArgumentHelp(
      "How many PostgreSQL connections this server may hold for requests ($TALLY_DATABASE_CONNECTIONS; default \(PostgresAppDatabase.defaultConnections)).",
      discussion: "One more listens for other servers' commits. Keep servers × (this + 1) under PostgreSQL's max_connections.",
      valueName: "n"))
  var databaseConnections: Int?

  @Option(help: ArgumentHelp("The address to listen on ($TALLY_HOST).", valueName: "address"))
  var host: String?

  @Option(help: ArgumentHelp("The port to listen on ($TALLY_PORT).", valueName: "port"))
  var port: Int?

  @Flag(help: "Let anyone create an account ($TALLY_ALLOW_SIGN_UP=1).")
  var allowSignUp = false

  @Option(
    help: ArgumentHelp(
      "Sign people in by this header from a trusted reverse proxy ($TALLY_TRUSTED_USER_HEADER).",
      discussion: "Needs --trusted-proxy; the proxy must remove the header from what clients send.",
      valueName: "header"))
  var trustedUserHeader: String?

  @Flag(help: "Make an account for a name the trusted user header gives that has none ($TALLY_TRUSTED_USER_CREATE=1).")
  var trustedUserCreate = false

  @Option(
    name: .customLong("trusted-proxy"),
    help: ArgumentHelp(
      "Believe X-Forwarded-For, X-Forwarded-Proto and the user header only from this proxy ($TALLY_TRUSTED_PROXIES).",
      discussion: "An address or a CIDR range (10.0.0.0/8), or 'private' for loopback and private ranges; repeat it, or separate with commas. Without it those headers are ignored.",
      valueName: "address"))
  var trustedProxies: [String] = []

  @Flag(help: "Mark cookies Secure even without X-Forwarded-Proto: https from a trusted proxy ($TALLY_SECURE_COOKIES=1).")
  var secureCookies = false

  @Flag(help: "Send Strict-Transport-Security on answers to requests that came over HTTPS ($TALLY_HSTS=1).")
  var hsts = false

  @Option(
    help: ArgumentHelp(
      "Make a backup of the database here every day ($TALLY_BACKUP_DIR).",
      discussion: "Files are named tally-backup-YYYY-MM-DD.sqlite (UTC); other files are never touched.",
      valueName: "directory"))
  var backupDir: String?

  @Option(help: ArgumentHelp("How many daily backups to keep, 1 or more ($TALLY_BACKUP_KEEP; default 7).", valueName: "n"))
  var backupKeep: Int?

  @Option(help: ArgumentHelp("trace, debug, info, notice, warning or error ($TALLY_LOG_LEVEL).", valueName: "level"))
  var logLevel: String?

  @Option(
    help: ArgumentHelp(
      "Serve Prometheus metrics at /metrics on this address only ($TALLY_METRICS_ADDRESS).",
      discussion: "Off by default; never the public port. For example 127.0.0.1:9090.",
      valueName: "host:port"))
  var metricsAddress: String?

  @Option(
    help: ArgumentHelp(
      "Close a connection that takes longer than this to send a request head, or sits idle ($TALLY_IDLE_TIMEOUT; default 20).",
      valueName: "seconds"))
  var idleTimeout: Int?

  @Option(
    help: ArgumentHelp(
      "Whom push services may contact about this server, a mailto: or https: address ($TALLY_PUSH_CONTACT).",
      valueName: "address"))
  var pushContact: String?

  @Flag(help: "Let push subscriptions point at loopback over http, for a local test stand-in ($TALLY_ALLOW_LOOPBACK_PUSH=1).")
  var allowLoopbackPush = false

  @Option(help: ArgumentHelp("How many live change streams may be open at once ($TALLY_LIVE_STREAMS; default 20000).", valueName: "n"))
  var liveStreams: Int?

  @Option(
    help: ArgumentHelp("How many live change streams one account may hold ($TALLY_LIVE_STREAMS_PER_USER; default 16).", valueName: "n"))
  var liveStreamsPerUser: Int?

  func validate() throws {
    if let pushContact, !Self.isContact(pushContact) {
      throw UsageError("The --push-contact must be a mailto: or https:// address, not '\(pushContact)'.")
    }
    if let port, !Self.portRange.contains(port) {
      throw UsageError("The --port must be \(Self.text(Self.portRange)), not \(port).")
    }
    if let backupKeep, backupKeep < 1 {
      throw UsageError("The --backup-keep must be 1 or more, not \(backupKeep).")
    }
    if let idleTimeout, !Self.idleTimeoutRange.contains(idleTimeout) {
      throw UsageError("The --idle-timeout must be \(Self.text(Self.idleTimeoutRange)) seconds, not \(idleTimeout).")
    }
    if let liveStreams, !Self.liveStreamRange.contains(liveStreams) {
      throw UsageError("The --live-streams must be \(Self.text(Self.liveStreamRange)), not \(liveStreams).")
    }
    if let liveStreamsPerUser, !Self.liveStreamRange.contains(liveStreamsPerUser) {
      throw UsageError(
        "The --live-streams-per-user must be \(Self.text(Self.liveStreamRange)), not \(liveStreamsPerUser).")
    }
    if let database, !PostgresLocation.isURL(database) {
      throw UsageError("The --database must be a postgres:// URL, not '\(database)'; a SQLite file is named with --db.")
    }
    if let databaseConnections, !Self.databaseConnectionRange.contains(databaseConnections) {
      throw UsageError(
        "The --database-connections must be \(Self.text(Self.databaseConnectionRange)), not \(databaseConnections).")
    }
    if database != nil, backupDir != nil {
      throw UsageError("Daily backups (--backup-dir) are for SQLite; back up PostgreSQL with pg_dump (docs/storage.md).")
    }
    do {
      _ = try TrustedProxies(parsing: trustedProxies)
    } catch {
      throw UsageError(Self.invalidProxy(error.text, source: "--trusted-proxy"))
    }
    if let logLevel, !Self.logLevels.contains(logLevel) {
      throw UsageError("The --log-level must be one of \(Self.logLevels.joined(separator: ", ")), not '\(logLevel)'.")
    }
  }

  static func isContact(_ text: String) -> Bool {
    let lower = text.lowercased()
    return (lower.hasPrefix("mailto:") && text.count > 7 && text.contains("@")) || (lower.hasPrefix("https://") && text.count > 8)
  }

  static func invalidProxy(_ text: String, source: String) -> String {
    "The \(source) must be IP addresses or CIDR ranges such as 172.18.0.0/16, or 'private', not '\(text)'."
  }

  static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

  func run(in context: CommandContext) async throws {
    let configuration = try serverConfiguration(context)
    let address = "http://\(configuration.host):\(configuration.port)"
    try await runServer(configuration, clock: try serverClock(context)) {
      context.standardOutput.line(
        "Tally is serving \(address) from \(Self.databaseName(configuration)). Stop it with Ctrl-C.")
    }
  }

  /// The database as the start-up line names it, a PostgreSQL password left out.
  static func databaseName(_ configuration: ServerConfiguration) -> String {
    if let url = configuration.databaseURL, let location = try? PostgresLocation(url: url) {
      return location.description
    }
    return configuration.databasePath ?? "memory"
  }

  /// With `--now` or `TALLY_NOW`, the server's clock starts at that instant and runs on from
  /// it, so a demonstration or a browser test sees a chosen day (and the hour around it).
  func serverClock(_ context: CommandContext) throws -> @Sendable () -> Date {
    let opener = SessionOpener(options: global, context: context)
    guard global.now != nil || !(context.environment["TALLY_NOW"] ?? "").isEmpty else { return context.clock }
    let start = try opener.now()
    let started = context.clock()
    let clock = context.clock
    return { start.addingTimeInterval(clock().timeIntervalSince(started)) }
  }

  /// Flags first, then the environment, then the defaults.
  func serverConfiguration(_ context: CommandContext) throws -> ServerConfiguration {
    let environment = context.environment
    var configuration = ServerConfiguration()
    if let url = database ?? environment["TALLY_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
      guard PostgresLocation.isURL(url) else {
        throw CommandFailure("TALLY_DATABASE_URL must be a postgres:// URL, not '\(url)'.", exitCode: CommandFailure.usage)
      }
      guard backupDir == nil, (environment["TALLY_BACKUP_DIR"] ?? "").isEmpty else {
        throw CommandFailure(
          "Daily backups (TALLY_BACKUP_DIR) are for SQLite; back up PostgreSQL with pg_dump (docs/storage.md).",
          exitCode: CommandFailure.usage)
      }
      configuration.databaseURL = url
      configuration.databaseConnections =
        try Self.number(
          databaseConnections, "TALLY_DATABASE_CONNECTIONS", environment, in: Self.databaseConnectionRange,
          Self.text(Self.databaseConnectionRange))
    } else {
      guard databaseConnections == nil else {
        throw CommandFailure(
          "The --database-connections is for PostgreSQL (--database or TALLY_DATABASE_URL); a SQLite file needs none.",
          exitCode: CommandFailure.usage)
      }
      configuration.databasePath = try SessionOpener(options: global, context: context).path()
    }
    configuration.adoptEmptyDatabase = global.adoptEmptyDb
    configuration.host = host ?? environment["TALLY_HOST"] ?? configuration.host
    configuration.tmdb = try tmdb.configuration(environment)
    configuration.port =
      try Self.number(port, "TALLY_PORT", environment, in: Self.portRange, "a port from \(Self.text(Self.portRange))") ?? configuration.port
    configuration.allowSignUp = allowSignUp || environment["TALLY_ALLOW_SIGN_UP"] == "1"
    configuration.trustedUserHeader = (trustedUserHeader ?? environment["TALLY_TRUSTED_USER_HEADER"]).flatMap {
      $0.isEmpty ? nil : $0
    }
    configuration.trustedProxies = try Self.trustedProxies(trustedProxies, environment)
    if let header = configuration.trustedUserHeader, configuration.trustedProxies.isEmpty {
      throw CommandFailure(
        "The trusted user header \(header) needs --trusted-proxy (TALLY_TRUSTED_PROXIES): it is believed only from the proxy's address.",
        exitCode: CommandFailure.usage)
    }
    configuration.trustedUserCreate = trustedUserCreate || environment["TALLY_TRUSTED_USER_CREATE"] == "1"
    if configuration.trustedUserCreate, configuration.trustedUserHeader == nil {
      throw CommandFailure(
        "The --trusted-user-create needs --trusted-user-header (TALLY_TRUSTED_USER_HEADER): it makes the accounts that header names.",
        exitCode: CommandFailure.usage)
    }
    configuration.oidc = try oidc.settings(environment)
    configuration.secureCookies = secureCookies || environment["TALLY_SECURE_COOKIES"] == "1"
    configuration.hsts = hsts || environment["TALLY_HSTS"] == "1"
    configuration.logLevel = logLevel ?? environment["TALLY_LOG_LEVEL"] ?? configuration.logLevel
    configuration.backupDirectory = backupDir ?? environment["TALLY_BACKUP_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    configuration.backupKeep =
      try Self.number(backupKeep, "TALLY_BACKUP_KEEP", environment, in: 1...Int.max, "a whole number, 1 or more")
      ?? configuration.backupKeep
    if let text = metricsAddress ?? environment["TALLY_METRICS_ADDRESS"], !text.isEmpty {
      configuration.metricsAddress = try Self.address(text, option: "--metrics-address")
    }
    configuration.push = try PushSettings.read(contact: pushContact, allowLoopback: allowLoopbackPush, environment)
    if let seconds = try Self.number(
      idleTimeout, "TALLY_IDLE_TIMEOUT", environment, in: Self.idleTimeoutRange,
      "\(Self.text(Self.idleTimeoutRange)) seconds")
    {
      configuration.idleTimeout = .seconds(seconds)
    }
    configuration.live.streams =
      try Self.number(liveStreams, "TALLY_LIVE_STREAMS", environment, in: Self.liveStreamRange, Self.text(Self.liveStreamRange))
      ?? configuration.live.streams
    configuration.live.streamsPerUser =
      try Self.number(
        liveStreamsPerUser, "TALLY_LIVE_STREAMS_PER_USER", environment, in: Self.liveStreamRange,
        Self.text(Self.liveStreamRange))
      ?? configuration.live.streamsPerUser
    return configuration
  }

  static let liveStreamRange = 1...1_000_000
  static let databaseConnectionRange = 1...1000
  static let portRange = 1...65_535
  static let idleTimeoutRange = 1...3600

  /// "1 to 65535": how a range is named in the messages about flags and the environment.
  static func text(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }

  /// `flag` (its range checked by ``validate()``), else the environment's `name`, which must be
  /// a number in `range`, described as `what` when it is not.
  static func number(
    _ flag: Int?, _ name: String, _ environment: [String: String], in range: ClosedRange<Int>, _ what: String
  ) throws -> Int? {
    if let flag { return flag }
    guard let text = environment[name] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw CommandFailure("\(name) must be \(what), not '\(text)'.", exitCode: CommandFailure.usage)
    }
    return value
  }

  /// The flags when there are any, else `TALLY_TRUSTED_PROXIES`.
  static func trustedProxies(_ flags: [String], _ environment: [String: String]) throws -> TrustedProxies {
    let fromFlags = !flags.isEmpty
    do {
      return try TrustedProxies(parsing: fromFlags ? flags : [environment["TALLY_TRUSTED_PROXIES"] ?? ""])
    } catch {
      throw CommandFailure(
        invalidProxy(error.text, source: fromFlags ? "--trusted-proxy" : "TALLY_TRUSTED_PROXIES"), exitCode: CommandFailure.usage)
    }
  }

  /// `HOST:PORT` (the host may be an IPv6 address in brackets).
  static func address(_ text: String, option: String) throws -> (host: String, port: Int) {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (1...65535).contains(port), colon > text.startIndex
    else {
      throw CommandFailure("The \(option) must be HOST:PORT, such as 127.0.0.1:9090, not '\(text)'.", exitCode: CommandFailure.usage)
    }
    let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return (host, port)
  }
}

extension PushSettings {
  /// Flags first, then the environment: what `tally serve` pushes with, and so what
  /// `tally reminders push test` must push with too.
  static func read(contact flag: String?, allowLoopback: Bool, _ environment: [String: String]) throws -> PushSettings {
    var settings = PushSettings()
    if let contact = flag ?? environment["TALLY_PUSH_CONTACT"], !contact.isEmpty {
      guard ServeCommand.isContact(contact) else {
        throw CommandFailure(
          "TALLY_PUSH_CONTACT must be a mailto: or https:// address, not '\(contact)'.", exitCode: CommandFailure.usage)
      }
      settings.contact = contact
    }
    settings.allowLoopback = allowLoopback || environment["TALLY_ALLOW_LOOPBACK_PUSH"] == "1"
    return settings
  }
}
