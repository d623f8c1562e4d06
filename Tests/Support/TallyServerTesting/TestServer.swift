import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyAccounts
import TallyCore
import TallyDelivery
import TallyHTTP
import TallyOIDC
import TallySQLite
import TallyServer
import TallyStore
import TallySync
import TallyTMDB
import Testing

/// 2026-03-08 12:00 UTC: a fixed "now" for every router test.
package let testNow = Date(timeIntervalSince1970: 1_772_971_200)

extension ServerConfiguration {
  /// As `tally serve` runs, but a connection may sit idle for minutes: on two cores a busy test
  /// process can leave a live test's client waiting longer than the 20 s the server allows
  /// between requests, and the server then rightly closes the connection under it.
  /// ConnectionLimitTests set their own times.
  package static var testing: ServerConfiguration {
    var configuration = ServerConfiguration()
    configuration.idleTimeout = .seconds(600)
    return configuration
  }
}

/// A router over a fresh SQLite store (in memory, or the file at `databasePath`) with a fixed
/// clock and cheap bcrypt.
package struct TestServer: Sendable {
  package let services: AppServices
  package var store: any Store { services.store }

  package init(
    configuration: ServerConfiguration = .testing, databasePath: String? = nil,
    clock: @escaping @Sendable () -> Date = { testNow }, showSource: (any ShowSource)? = nil,
    webhookTransport: any WebhookTransport = HTTPWebhookTransport(), logos: LogoCache? = nil,
    providerTransport: (any ProviderTransport)? = nil
  ) throws {
    let store = SQLiteStore(try databasePath.map { try AppDatabase.open(at: $0) } ?? AppDatabase.inMemory())
    self.init(
      store: store, configuration: configuration, clock: clock, showSource: showSource,
      webhookTransport: webhookTransport, logos: logos, providerTransport: providerTransport)
  }

  /// A router over `store`: a PostgreSQL store, or one of several instances on one database.
  package init(
    store: any SyncingStore, configuration: ServerConfiguration = .testing,
    clock: @escaping @Sendable () -> Date = { testNow }, showSource: (any ShowSource)? = nil,
    webhookTransport: any WebhookTransport = HTTPWebhookTransport(), logos: LogoCache? = nil,
    providerTransport: (any ProviderTransport)? = nil
  ) {
    services = AppServices(
      store: store, configuration: configuration,
      accounts: AccountService(store: store, hasher: PasswordHasher(cost: 4)), clock: clock,
      showSource: showSource, webhookTransport: webhookTransport, logos: logos,
      providerSignIn: configuration.oidc.flatMap { settings in
        providerTransport.map {
          ProviderSignIn(
            settings: settings, client: OIDCClient(configuration: settings.client, transport: $0, now: clock),
            pending: store)
        }
      })
  }

  /// Runs `body` against the router, in process: no sockets.
  package func test<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
    let app = Application(router: buildRouter(services))
    return try await app.test(.router) { client in try await body(client) }
  }

  /// Runs `body` against a real server on a free local port; `client.port` names it.
  /// The server has the limits `tally serve` has (``HTTPLimits``).
  package func testLive<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
    let app = Application(
      router: buildRouter(services), server: HTTPLimits.server(idleTimeout: services.configuration.idleTimeout),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in try await body(client) }
  }
}

extension TestClientProtocol {
  /// Sends `json` (an encodable value or raw text) with the given headers.
  @discardableResult
  package func send(
    _ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, headers: HTTPFields = [:]
  ) async throws -> TestResponse {
    var headers = headers
    var body: ByteBuffer?
    if let json {
      let data =
        if let text = json as? String { Data(text.utf8) } else { try JSONSerialization.data(withJSONObject: json) }
      body = ByteBuffer(bytes: data)
      headers[.contentType] = "application/json"
    }
    return try await executeRequest(uri: uri, method: method, headers: headers, body: body)
  }

  /// Sets up the owner and returns headers carrying their session cookie.
  package func setUpOwner(_ name: String = "ada", password: String = "correct horse") async throws -> HTTPFields {
    let response = try await send(.post, "/api/v1/setup", json: ["name": name, "password": password])
    #expect(response.status == .created)
    return try sessionHeaders(from: response)
  }

  package func signIn(_ name: String, password: String) async throws -> HTTPFields {
    let response = try await send(.post, "/api/v1/session", json: ["name": name, "password": password])
    #expect(response.status == .ok)
    return try sessionHeaders(from: response)
  }

  /// An API token for the session's user, as `Authorization` headers.
  package func bearer(_ session: HTTPFields, name: String = "tests") async throws -> HTTPFields {
    let response = try await send(.post, "/api/v1/tokens", json: ["name": name], headers: session)
    #expect(response.status == .created)
    let secret = try #require(response.object["secret"] as? String)
    return [.authorization: "Bearer \(secret)"]
  }

  /// Adds a habit (`fields` beside the name) and returns it as the API sent it.
  package func addHabit(_ name: String, _ fields: [String: Any] = [:], headers: HTTPFields) async throws -> [String: Any] {
    let response = try await send(.post, "/api/v1/habits", json: fields.merging(["name": name]) { a, _ in a }, headers: headers)
    #expect(response.status == .created, "\(response.text)")
    return response.object
  }

  /// A second account, made by the owner, signed in.
  package func addMember(_ name: String, owner: HTTPFields) async throws -> HTTPFields {
    let made = try await send(.post, "/api/v1/users", json: ["name": name, "password": "battery staple"], headers: owner)
    #expect(made.status == .created)
    return try await signIn(name, password: "battery staple")
  }

  private func sessionHeaders(from response: TestResponse) throws -> HTTPFields {
    let cookie = try #require(response.headers[.setCookie])
    let pair = try #require(cookie.split(separator: ";").first)
    return [.cookie: String(pair)]
  }
}

extension TestResponse {
  package var text: String { String(buffer: body) }
  package var object: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
  }
  package var array: [[String: Any]] {
    (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [[String: Any]] ?? []
  }
  /// A problem's detail, for messages that must name what was wrong.
  package var detail: String { object["detail"] as? String ?? "" }
  /// The request field a problem names.
  package var field: String? { object["field"] as? String }
}
