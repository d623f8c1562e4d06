import Foundation
import Hummingbird
import HummingbirdTesting
import TallyHTTP
import TallyPostgres
import TallySQLite
import TallyServer
import Testing

/// What a self-hoster runs around `serve`: the version, the health check a container asks,
/// and the proxy settings refused before anything starts.
@Suite struct ServerCommandTests {
  @Test func theVersionNamesTheReleaseTheCommitAndTheSchemas() async {
    let result = await Harness().run("--version")
    #expect(result.status == 0)
    let lines = result.lines.filter { !$0.isEmpty }
    #expect(lines.count == 3)
    #expect(lines.first?.wholeMatch(of: /tally \d+\.\d+\.\d+/) != nil)
    // Tests build from source, without scripts/release's commit.
    #expect(lines.dropFirst().first == "commit unknown")
    #expect(
      lines.last
        == "schema SQLite \(AppDatabase.schemaVersions.last!), PostgreSQL \(PostgresAppDatabase.schemaVersions.last!)")
  }

  @Test func theHealthCheckAsksTheServersHealthz() async throws {
    let services = AppServices(store: SQLiteStore(try AppDatabase.inMemory()), configuration: ServerConfiguration())
    let app = Application(router: buildRouter(services), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      let port = try #require(client.port)
      var harness = Harness()
      // Generous: this server shares a busy test process.
      let healthy = await harness.run("healthcheck", "--port", "\(port)", "--timeout", "60")
      #expect(healthy.status == 0, "\(healthy.stderr)")
      #expect(healthy.stdout == "Tally at http://127.0.0.1:\(port)/healthz is healthy.\n")
      // As serve reads them: a server told to listen everywhere is asked on loopback.
      harness.environment["TALLY_HOST"] = "0.0.0.0"
      harness.environment["TALLY_PORT"] = "\(port)"
      #expect(await harness.run("healthcheck", "--timeout", "60").status == 0)
    }
  }

  @Test func anUnhealthyOrSilentServerFailsTheCheck() async throws {
    let router = Router()
    router.get("healthz") { _, _ in Response(status: .serviceUnavailable) }
    try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
      let port = try #require(client.port)
      let sick = await Harness().run("healthcheck", "--port", "\(port)", "--timeout", "60")
      #expect(sick.status == 1)
      #expect(sick.stderr == "Error: Tally at http://127.0.0.1:\(port)/healthz is not healthy: it answered 503 Service Unavailable.\n")
    }
    // A port nobody listens on: bound, then closed.
    let socket = try ClosedPort()
    let silent = await Harness().run("healthcheck", "--port", "\(socket.port)", "--timeout", "2")
    #expect(silent.status == 1)
    #expect(silent.stderr == "Error: Tally did not answer at http://127.0.0.1:\(socket.port)/healthz: nothing is listening there.\n")
  }

  @Test(arguments: [
    (["--trusted-proxy", "proxy.example"], [:], "The --trusted-proxy must be IP addresses or CIDR ranges such as 172.18.0.0/16, or 'private', not 'proxy.example'."),
    (["--trusted-proxy", "10.0.0.1/8"], [:], "The --trusted-proxy must be IP addresses or CIDR ranges such as 172.18.0.0/16, or 'private', not '10.0.0.1/8'."),
    ([], ["TALLY_TRUSTED_PROXIES": "10.0.0.0/8,,nope"], "TALLY_TRUSTED_PROXIES must be IP addresses or CIDR ranges such as 172.18.0.0/16, or 'private', not 'nope'."),
    (["--trusted-user-header", "X-Remote-User"], [:], "The trusted user header X-Remote-User needs --trusted-proxy (TALLY_TRUSTED_PROXIES): it is believed only from the proxy's address."),
    // The pool's size is PostgreSQL's to have: out of range, or given for a SQLite file.
    (["--database", "postgres://tally@127.0.0.1:1/tally", "--database-connections", "0"], [:],
     "The --database-connections must be 1 to 1000, not 0."),
    ([], ["TALLY_DATABASE_URL": "postgres://tally@127.0.0.1:1/tally", "TALLY_DATABASE_CONNECTIONS": "ten"],
     "TALLY_DATABASE_CONNECTIONS must be 1 to 1000, not 'ten'."),
    (["--database-connections", "4"], [:],
     "The --database-connections is for PostgreSQL (--database or TALLY_DATABASE_URL); a SQLite file needs none."),
  ] as [([String], [String: String], String)])
  func settingsThatCannotBeRightStopServeBeforeItStarts(
    arguments: [String], environment: [String: String], message: String
  ) async {
    var harness = Harness()
    harness.environment.merge(environment) { _, new in new }
    let result = await harness.run(["serve", "--port", "1"] + arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: harness.path))
  }

  /// Each way `--oidc-*` can be wrong stops serve before it opens the database, naming the
  /// option and what is wrong with it.
  @Test func providerSettingsThatCannotBeRightStopServeBeforeItStarts() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-oidc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func secretFile(_ name: String, _ text: String, mode: Int) throws -> String {
      let path = folder.appendingPathComponent(name).path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
      return path
    }
    let good = try secretFile("good", "s3cret\n", mode: 0o600)
    let shared = try secretFile("shared", "s3cret", mode: 0o644)
    let empty = try secretFile("empty", "\n", mode: 0o600)
    let closed = try ClosedPort().port
    let issuer = ["--oidc-issuer", "https://id.example.org/realms/home", "--oidc-client-id", "tally"]
    let cases: [([String], [String: String], String)] = [
      (["--oidc-client-id", "tally"], [:], "The --oidc-client-id needs --oidc-issuer (TALLY_OIDC_ISSUER), the provider it is about."),
      (["--oidc-issuer", "http://id.example.org", "--oidc-client-id", "tally", "--oidc-client-secret-file", good], [:],
       "The --oidc-issuer cannot be used: The OpenID Connect issuer http://id.example.org is not https"),
      (["--oidc-issuer", "https://id.example.org"], [:], "The --oidc-issuer needs --oidc-client-id (TALLY_OIDC_CLIENT_ID)"),
      (issuer, [:], "The --oidc-issuer needs the client secret: --oidc-client-secret-file FILE or TALLY_OIDC_CLIENT_SECRET."),
      (issuer + ["--oidc-client-secret-file", folder.appendingPathComponent("missing").path], [:], "cannot be read: there is no such file."),
      (issuer + ["--oidc-client-secret-file", shared], [:], "is readable by others (mode 644): run chmod 600 \(shared)."),
      (issuer + ["--oidc-client-secret-file", empty], [:], "The --oidc-client-secret-file \(empty) is empty."),
      (issuer + ["--oidc-client-secret-file", good, "--oidc-new-accounts", "everyone"], [:],
       "The --oidc-new-accounts must be 'create' or 'invited', not 'everyone'."),
      (["--trusted-user-create"], [:], "The --trusted-user-create needs --trusted-user-header (TALLY_TRUSTED_USER_HEADER)"),
      // Everything right but a provider that does not answer: nothing is opened either.
      (["--oidc-issuer", "http://127.0.0.1:\(closed)", "--oidc-client-id", "tally"], ["TALLY_OIDC_CLIENT_SECRET": "s3cret"],
       "--oidc-issuer http://127.0.0.1:\(closed) cannot be used: The identity provider could not be reached at http://127.0.0.1:\(closed)/.well-known/openid-configuration"),
    ]
    for (arguments, environment, message) in cases {
      var harness = Harness()
      harness.environment.merge(environment) { _, new in new }
      let result = await harness.run(["serve", "--port", "1"] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: harness.path))
    }
  }

  /// Each number serve reads from its environment is checked as its flag is, and named.
  @Test(arguments: [
    ("TALLY_PORT", "0", "TALLY_PORT must be a port from 1 to 65535, not '0'."),
    ("TALLY_BACKUP_KEEP", "none", "TALLY_BACKUP_KEEP must be a whole number, 1 or more, not 'none'."),
    ("TALLY_IDLE_TIMEOUT", "3601", "TALLY_IDLE_TIMEOUT must be 1 to 3600 seconds, not '3601'."),
    ("TALLY_LIVE_STREAMS", "-1", "TALLY_LIVE_STREAMS must be 1 to 1000000, not '-1'."),
    ("TALLY_LIVE_STREAMS_PER_USER", "1e3", "TALLY_LIVE_STREAMS_PER_USER must be 1 to 1000000, not '1e3'."),
  ])
  func aBadNumberInTheEnvironmentStopsServeBeforeItStarts(name: String, value: String, message: String) async {
    var harness = Harness()
    harness.environment[name] = value
    let result = await harness.run("serve")
    #expect(result.status == 64)
    #expect(result.stderr == "Error: \(message)\n")
    #expect(!FileManager.default.fileExists(atPath: harness.path))
  }
}

/// A loopback port that was free a moment ago and has nothing listening on it now.
struct ClosedPort {
  let port: Int

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else { throw CocoaError(.fileReadUnknown) }
    port = Int(UInt16(bigEndian: address.sin_port))
  }
}
