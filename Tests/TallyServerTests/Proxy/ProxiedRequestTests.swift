import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// A real server on loopback, so every request comes from 127.0.0.1: trusted when the server
/// trusts it, a stranger otherwise (a range elsewhere is trusted instead).
@Suite struct ProxiedRequestTests {
  static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
  static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
  static let remoteUser = HTTPField.Name("X-Remote-User")!
  static let host = HTTPField.Name("Host")!

  static func server(trustingLoopback: Bool, _ edit: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
    var configuration = ServerConfiguration.testing
    configuration.trustedProxies = try TrustedProxies(parsing: [trustingLoopback ? "127.0.0.1" : "10.0.0.0/8"])
    edit(&configuration)
    return try TestServer(configuration: configuration)
  }

  static let overHTTPS: HTTPFields = [forwardedFor: "203.0.113.9", forwardedProto: "https"]

  @Test func aTrustedProxysSchemeMakesTheCookieSecureAndSendsHSTS() async throws {
    try await Self.server(trustingLoopback: true) { $0.hsts = true }.testLive { client in
      let made = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse"], headers: Self.overHTTPS)
      #expect(made.status == .created)
      #expect(made.headers[.setCookie]?.contains("; Secure") == true)
      #expect(made.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=31536000")
      // The proxy reached over plain http: neither.
      let plain = try await client.send(.get, "/healthz", headers: [Self.forwardedProto: "http"])
      #expect(plain.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
    }
  }

  @Test func theSameHeadersFromAStrangerAreIgnored() async throws {
    try await Self.server(trustingLoopback: false) { $0.hsts = true }.testLive { client in
      let made = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse"], headers: Self.overHTTPS)
      #expect(made.status == .created)
      let cookie = try #require(made.headers[.setCookie])
      #expect(!cookie.contains("Secure"))
      #expect(made.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
      // An https page is another origin than this plain-http server, whatever the stranger says.
      let session: HTTPFields = [.cookie: String(cookie.split(separator: ";")[0]), Self.host: "tally.example"]
      func status(origin: String, _ extra: HTTPFields = [:]) async throws -> HTTPResponse.Status {
        var headers = session
        headers[.origin] = origin
        headers.append(contentsOf: extra)
        return try await client.send(.post, "/api/v1/tokens", json: ["name": "t"], headers: headers).status
      }
      #expect(try await status(origin: "https://tally.example", Self.overHTTPS) == .forbidden)
      #expect(try await status(origin: "http://tally.example", Self.overHTTPS) == .created)
    }
  }

  @Test func anOriginOverHTTPSIsTheSiteItselfThroughATrustedProxy() async throws {
    try await Self.server(trustingLoopback: true).testLive { client in
      let made = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse"], headers: Self.overHTTPS)
      var headers = Self.overHTTPS
      headers[.cookie] = String(try #require(made.headers[.setCookie]).split(separator: ";")[0])
      headers[Self.host] = "tally.example"
      headers[.origin] = "https://tally.example"
      #expect(try await client.send(.post, "/api/v1/tokens", json: ["name": "t"], headers: headers).status == .created)
      headers[.origin] = "http://tally.example"
      #expect(try await client.send(.post, "/api/v1/tokens", json: ["name": "t"], headers: headers).status == .forbidden)
      // Links to paste elsewhere carry the scheme people use.
      headers[.origin] = nil
      let link = try await client.send(.post, "/api/v1/feeds/reminders", headers: headers)
      #expect((link.object["remindersURL"] as? String)?.hasPrefix("https://tally.example/feeds/") == true)
    }
  }

  /// Five wrong passwords from one person close sign-in for that name from that person only.
  static func signIn(_ client: some TestClientProtocol, from address: String, password: String = "wrong horse")
    async throws -> HTTPResponse.Status
  {
    try await client.send(
      .post, "/api/v1/session", json: ["name": "ada", "password": password], headers: [forwardedFor: address]
    ).status
  }

  @Test func theThrottleCountsEachForwardedClient() async throws {
    try await Self.server(trustingLoopback: true).testLive { client in
      _ = try await client.setUpOwner()
      for _ in 0..<5 { #expect(try await Self.signIn(client, from: "203.0.113.9") == .unauthorized) }
      #expect(try await Self.signIn(client, from: "203.0.113.9") == .tooManyRequests)
      #expect(try await Self.signIn(client, from: "198.51.100.7") == .unauthorized)
      #expect(try await Self.signIn(client, from: "198.51.100.7", password: "correct horse") == .ok)
    }
    // Not trusted: whatever it forwards, the connection is one client.
    try await Self.server(trustingLoopback: false).testLive { client in
      _ = try await client.setUpOwner()
      for _ in 0..<5 { #expect(try await Self.signIn(client, from: "203.0.113.9") == .unauthorized) }
      #expect(try await Self.signIn(client, from: "198.51.100.7", password: "correct horse") == .tooManyRequests)
    }
  }

  @Test func theUserHeaderSignsInOnlyFromATrustedProxy() async throws {
    try await Self.server(trustingLoopback: true) { $0.trustedUserHeader = "X-Remote-User" }.testLive { client in
      _ = try await client.setUpOwner()
      let me = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "ada"])
      #expect(me.object["name"] as? String == "ada")
      let stranger = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "mallory"])
      #expect(stranger.status == .unauthorized)
      #expect(stranger.detail.contains("mallory"))
    }
    try await Self.server(trustingLoopback: false) { $0.trustedUserHeader = "X-Remote-User" }.testLive { client in
      let owner = try await client.setUpOwner()
      let forged = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "ada"])
      #expect(forged.status == .forbidden)
      #expect(forged.headers[.contentType] == "application/problem+json")
      #expect(forged.detail.contains("X-Remote-User") && forged.detail.contains("127.0.0.1"))
      // Refused even beside a valid session: the request is not what it claims.
      var both = owner
      both[Self.remoteUser] = "ada"
      #expect(try await client.send(.get, "/api/v1/me", headers: both).status == .forbidden)
      #expect(try await client.send(.get, "/api/v1/me", headers: owner).status == .ok)
    }
  }

  @Test func theUserHeaderMayMakeAccountsAtFirstSight() async throws {
    try await Self.server(trustingLoopback: true) {
      $0.trustedUserHeader = "X-Remote-User"
      $0.trustedUserCreate = true
    }.testLive { client in
      // The first name the proxy brings to an empty server is its owner; the next a member.
      let first = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "ada"])
      #expect(first.status == .ok)
      let again = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "ada"])
      #expect(again.object["id"] as? String == first.object["id"] as? String)
      let bob = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "bob"])
      #expect(bob.object["name"] as? String == "bob")
      let users = try await client.send(.get, "/api/v1/users", headers: [Self.remoteUser: "ada"])
      #expect(users.status == .ok, "ada is the owner: \(users.text)")
      #expect(try await client.send(.get, "/api/v1/users", headers: [Self.remoteUser: "bob"]).status == .forbidden)
    }
    // From anyone but the proxy, the header still makes nothing.
    try await Self.server(trustingLoopback: false) {
      $0.trustedUserHeader = "X-Remote-User"
      $0.trustedUserCreate = true
    }.testLive { client in
      let forged = try await client.send(.get, "/api/v1/me", headers: [Self.remoteUser: "mallory"])
      #expect(forged.status == .forbidden)
      let setUp = try await client.send(.post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse"])
      #expect(setUp.status == .created, "mallory was not made the owner")
    }
  }
}
