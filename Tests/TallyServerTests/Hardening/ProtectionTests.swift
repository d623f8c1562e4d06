import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

@Suite struct ProtectionTests {
  @Test func aCookieWriteFromAnotherSiteIsRefusedAndChangesNothing() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      var crossSite = session
      crossSite[.origin] = "https://evil.example"
      crossSite[HTTPField.Name("Host")!] = "tally.example"
      let refused = try await client.send(.post, "/api/v1/tokens", json: ["name": "stolen"], headers: crossSite)
      #expect(refused.status == .forbidden)
      #expect(refused.detail.contains("Cross-site"))
      #expect(try await client.send(.get, "/api/v1/tokens", headers: session).array.isEmpty)

      var sameSite = session
      sameSite[.origin] = "http://tally.example"
      sameSite[HTTPField.Name("Host")!] = "tally.example"
      #expect(try await client.send(.post, "/api/v1/tokens", json: ["name": "mine"], headers: sameSite).status == .created)

      var fetchCrossSite = session
      fetchCrossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
      #expect(try await client.send(.delete, "/api/v1/session", headers: fetchCrossSite).status == .forbidden)
    }
  }

  /// Issue 17: an origin is scheme, host and port. The http server is not `https://` its host,
  /// nor the same host on another port.
  @Test func theOriginMustMatchInSchemeHostAndPort() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      func status(origin: String, host: String, proto: String? = nil) async throws -> HTTPResponse.Status {
        var headers = session
        headers[.origin] = origin
        headers[HTTPField.Name("Host")!] = host
        if let proto { headers[HTTPField.Name("X-Forwarded-Proto")!] = proto }
        return try await client.send(.post, "/api/v1/tokens", json: ["name": "t"], headers: headers).status
      }
      #expect(try await status(origin: "https://127.0.0.1:8080", host: "127.0.0.1:8080") == .forbidden)
      #expect(try await status(origin: "http://127.0.0.1:8081", host: "127.0.0.1:8080") == .forbidden)
      #expect(try await status(origin: "http://127.0.0.1", host: "127.0.0.1:8080") == .forbidden)
      #expect(try await status(origin: "null", host: "127.0.0.1:8080") == .forbidden)
      #expect(try await status(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080") == .created)
      #expect(try await status(origin: "HTTP://Tally.Example:80", host: "tally.example") == .created)
      // Nobody is a trusted proxy here (ProxiedRequestTests has one), so the header is a claim.
      #expect(try await status(origin: "https://tally.example", host: "tally.example", proto: "https") == .forbidden)
      #expect(try await status(origin: "http://[::1]:8080", host: "[::1]:8080") == .created)
    }
  }

  /// A revoked token keeps public routes open and says why a private one refuses.
  @Test func aBadTokenIsRefusedOnlyWhereAUserIsNeeded() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let bad: HTTPFields = [.authorization: "Bearer tly_not-a-token"]
      #expect(try await client.send(.get, "/healthz", headers: bad).status == .ok)
      #expect(try await client.send(.get, "/api/v1/setup", headers: bad).status == .ok)
      let me = try await client.send(.get, "/api/v1/me", headers: bad)
      #expect(me.status == .unauthorized)
      #expect(me.detail == "The API token is unknown, revoked or expired.")
    }
  }

  @Test func everyResponseCarriesSecurityHeaders() async throws {
    try await TestServer().test { client in
      for uri in ["/healthz", "/api/v1/me", "/no/such/page"] {
        let response = try await client.send(.get, uri)
        #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri)")
        #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(uri)")
        #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true, "\(uri)")
      }
    }
  }

  @Test func anUnknownRouteIsAProblem() async throws {
    try await TestServer().test { client in
      let response = try await client.send(.get, "/api/v1/nothing-here")
      #expect(response.status == .notFound)
      #expect(response.headers[.contentType] == "application/problem+json")
      #expect(response.object["status"] as? Int == 404)
    }
  }

  @Test func badBodiesGetAFourHundredNamingTheField() async throws {
    try await TestServer().test { client in
      let notJSON = try await client.send(.post, "/api/v1/setup", json: "{name: ada")
      #expect(notJSON.status == .badRequest)
      #expect(notJSON.detail == "The request body is not valid JSON.")

      let unknown = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse", "admin": true])
      #expect(unknown.status.code == 422)
      #expect(unknown.object["field"] as? String == "admin")

      let missing = try await client.send(.post, "/api/v1/setup", json: ["name": "ada"])
      #expect(missing.status.code == 422)
      #expect(missing.object["field"] as? String == "password")

      let wrongType = try await client.send(.post, "/api/v1/setup", json: ["name": 7, "password": "correct horse"])
      #expect(wrongType.status.code == 422)
      #expect(wrongType.object["field"] as? String == "name")

      let short = try await client.send(.post, "/api/v1/setup", json: ["name": "ada", "password": "short"])
      #expect(short.status.code == 422)
      #expect(short.object["field"] as? String == "password")

      let zone = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse", "timeZone": "Mars/Olympus"])
      #expect(zone.status.code == 422)
      #expect(zone.detail.contains("Mars/Olympus"))

      #expect(try await client.send(.get, "/api/v1/setup").object["needsSetUp"] as? Bool == true)
    }
  }

  @Test func anOversizedBodyIsRefused() async throws {
    var configuration = ServerConfiguration()
    configuration.maxBodySize = 64
    try await TestServer(configuration: configuration).test { client in
      let response = try await client.send(
        .post, "/api/v1/setup", json: ["name": String(repeating: "a", count: 100), "password": "correct horse"])
      #expect(response.status == .contentTooLarge)
    }
  }

  @Test func healthAnswersWhileTheDatabaseDoes() async throws {
    try await TestServer().test { client in
      let response = try await client.send(.get, "/healthz")
      #expect(response.status == .ok)
      #expect(response.object["status"] as? String == "ok")
    }
  }
}
