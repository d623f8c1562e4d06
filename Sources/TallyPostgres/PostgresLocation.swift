import Foundation
import PostgresNIO
import TallyStore

/// Where a PostgreSQL database is, read from a `postgres://user:password@host:port/database`
/// URL (`postgresql://` too). `?sslmode=disable|prefer|require` chooses TLS (default
/// `prefer`), `?search_path=NAME` a schema other than `public` (tests use one each).
/// `?host=/run/postgresql` (or a host that is a path) names the directory of the server's
/// Unix socket, as libpq reads it: a server on the same machine, without TCP.
public struct PostgresLocation: Sendable, Equatable {
  /// A name or address, or the directory of the server's Unix socket (starting with `/`).
  public var host: String
  public var port: Int
  public var username: String
  public var password: String?
  public var database: String
  public var schema: String?
  public var sslMode: String

  /// Whether `text` names a PostgreSQL database rather than a SQLite file.
  public static func isURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  public init(url text: String) throws(StoreError) {
    let url = URLComponents(string: text)
    let socket = url?.queryItems?.first { $0.name == "host" }?.value
    guard Self.isURL(text), let url, let host = socket ?? url.host?.removingPercentEncoding, !host.isEmpty else {
      throw .unreadable(
        path: Self.redacted(text), reason: "it is not a URL like postgres://user:password@host:5432/database")
    }
    if socket != nil, !host.hasPrefix("/") {
      throw .unreadable(
        path: Self.redacted(text), reason: "host must be the directory of PostgreSQL's socket, like /run/postgresql")
    }
    self.host = host
    port = url.port ?? 5432
    username = url.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
    password = url.password.flatMap { $0.removingPercentEncoding }
    let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
    database = path.isEmpty ? username : path
    var schema: String?
    var sslMode = "prefer"
    for item in url.queryItems ?? [] {
      switch item.name {
      case "sslmode": sslMode = item.value ?? sslMode
      case "search_path": schema = item.value
      case "host": break
      default:
        throw .unreadable(path: Self.redacted(text), reason: "the URL's parameter '\(item.name)' is not one Tally knows")
      }
    }
    guard ["disable", "prefer", "require"].contains(sslMode) else {
      throw .unreadable(path: Self.redacted(text), reason: "sslmode must be disable, prefer or require")
    }
    if let schema, schema.isEmpty || !schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
      throw .unreadable(path: Self.redacted(text), reason: "search_path must be one schema name of letters, digits and _")
    }
    self.schema = schema
    self.sslMode = sslMode
  }

  /// The URL without its password, for messages and logs.
  public var description: String {
    guard socketPath != nil else {
      return "postgres://\(username)@\(host):\(port)/\(database)" + (schema.map { "?search_path=\($0)" } ?? "")
    }
    return "postgres://\(username)@\(port == 5432 ? "" : ":\(port)")/\(database)?host=\(host)"
      + (schema.map { "&search_path=\($0)" } ?? "")
  }

  /// Where the server answers, for messages: its address and port, or its socket.
  var server: String { socketPath ?? "\(host):\(port)" }

  /// The server's Unix socket, when ``host`` is its directory.
  var socketPath: String? { host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : nil }

  static func redacted(_ text: String) -> String {
    guard var url = URLComponents(string: text) else { return "the PostgreSQL URL" }
    if url.password != nil { url.password = "…" }
    return url.string ?? "the PostgreSQL URL"
  }

  /// How to connect to the database; throws only when TLS cannot be set up.
  func connectionConfiguration() throws -> PostgresConnection.Configuration {
    var configuration =
      if let socketPath {
        PostgresConnection.Configuration(unixSocketPath: socketPath, username: username, password: password, database: database)
      } else {
        PostgresConnection.Configuration(
          host: host, port: port, username: username, password: password, database: database, tls: try tls())
      }
    configuration.options.connectTimeout = .seconds(5)
    if let schema {
      configuration.options.additionalStartupParameters = [("search_path", schema)]
    }
    return configuration
  }

  private func tls() throws -> PostgresConnection.Configuration.TLS {
    switch sslMode {
    case "disable": .disable
    case "require": .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
    default: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
    }
  }
}
