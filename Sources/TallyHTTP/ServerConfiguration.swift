import Foundation
import TallyPush
import TallySync
import TallyTMDB

/// How `tally serve` runs: flags and environment variables fill it (docs/server.md).
public struct ServerConfiguration: Sendable {
  public var host: String
  public var port: Int
  /// The SQLite file; `nil` serves an in-memory store (tests).
  public var databasePath: String?
  /// A PostgreSQL database (`postgres://…`); when set it is served instead of ``databasePath``,
  /// and several servers may share it (docs/storage.md).
  public var databaseURL: String?
  /// How many connections to ``databaseURL`` the server holds for requests (`nil`: the
  /// PostgreSQL store's default); it holds one more, which listens for other instances' commits.
  public var databaseConnections: Int?
  /// Lets an existing empty file at ``databasePath`` become the database (`--adopt-empty-db`).
  public var adoptEmptyDatabase = false
  /// Lets anyone create an account. Off: accounts come from the owner.
  public var allowSignUp: Bool
  /// When set, a trusted reverse proxy signs people in by putting their user name in this
  /// header. Believed only from ``trustedProxies``, and only safe when the proxy strips it
  /// from what clients send; from anyone else it is refused.
  public var trustedUserHeader: String?
  /// The reverse proxies whose `X-Forwarded-For`, `X-Forwarded-Proto` and user header are
  /// believed; empty believes none (`--trusted-proxy`).
  public var trustedProxies = TrustedProxies()
  /// Makes an account for a name the trusted user header gives that has none
  /// (`--trusted-user-create`); off, such a request is refused.
  public var trustedUserCreate = false
  /// Sign-in through an OpenID Connect provider (`--oidc-issuer` and its kin); `nil` offers none.
  public var oidc: OIDCSettings?
  /// Marks cookies `Secure` even when no proxy says the request came over HTTPS.
  public var secureCookies: Bool
  /// Sends `Strict-Transport-Security` on answers to requests that came over HTTPS (`--hsts`).
  public var hsts = false
  /// The largest request body accepted, in bytes; an import may be larger (``maxImportSize``).
  public var maxBodySize: Int
  public var maxImportSize: Int
  /// How large a sync push may be and how far ahead its stamps may run (docs/sync.md).
  public var sync = SyncLimits.standard
  /// The largest sync push body, in bytes: a thousand changes with long journal texts fit.
  public var maxSyncPushSize = 16 << 20
  /// Bcrypt's work factor for new passwords.
  public var passwordCost: UInt8
  public var logLevel: String
  /// Where `DailyBackups` (TallyServer) writes a backup a day; `nil` makes none.
  public var backupDirectory: String?
  /// How many daily backups to keep.
  public var backupKeep = 7
  /// Where shows are searched and fetched; `nil` (no API key) turns those routes off.
  public var tmdb: TMDBConfiguration?
  /// How long a connection may take to send a request's head, or sit idle between requests,
  /// before it is closed: a few slow clients cannot hold every descriptor (issue 17).
  public var idleTimeout: Duration = .seconds(20)
  /// Where Prometheus reads `/metrics`, on a listener of its own; `nil` serves no metrics. Never
  /// the public port: request counts per route are not for every visitor.
  public var metricsAddress: (host: String, port: Int)?
  /// Web Push (docs/reminders.md): whom push services may contact about this server.
  public var push = PushSettings()
  /// Live change streams (docs/sync.md "Live changes").
  public var live = LiveSettings()

  public init(
    host: String = "127.0.0.1",
    port: Int = 8080,
    databasePath: String? = nil,
    allowSignUp: Bool = false,
    trustedUserHeader: String? = nil,
    secureCookies: Bool = false,
    maxBodySize: Int = 1 << 20,
    maxImportSize: Int = 64 << 20,
    passwordCost: UInt8 = 12,
    logLevel: String = "info",
    tmdb: TMDBConfiguration? = nil
  ) {
    self.host = host
    self.port = port
    self.databasePath = databasePath
    self.allowSignUp = allowSignUp
    self.trustedUserHeader = trustedUserHeader
    self.secureCookies = secureCookies
    self.maxBodySize = maxBodySize
    self.maxImportSize = maxImportSize
    self.passwordCost = passwordCost
    self.logLevel = logLevel
    self.tmdb = tmdb
  }
}

/// Live change streams: how often a quiet stream says it is alive, and how many may be open.
public struct LiveSettings: Sendable {
  /// Under the idle time-outs of common proxies (60 s for nginx, Caddy none) and of phone
  /// networks, so a quiet stream is not cut.
  public var heartbeat: Duration = .seconds(15)
  /// How often commits made where no announcement reaches are looked for while streams are
  /// open (another process on an SQLite file; a PostgreSQL instance not hearing others).
  public var catchUp: Duration = .milliseconds(500)
  public var streamsPerUser = 16
  public var streams = 20_000

  public init() {}
}
