import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

@Suite struct AccountRouteTests {
  @Test func aNewServerOffersSetUpOnceThenSignsTheOwnerIn() async throws {
    try await TestServer().test { client in
      let status = try await client.send(.get, "/api/v1/setup")
      #expect(status.object["needsSetUp"] as? Bool == true)
      #expect(status.object["signUpOpen"] as? Bool == false)

      let response = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse", "timeZone": "Europe/Berlin"],
        headers: [.acceptLanguage: "de-DE,de;q=0.9,en;q=0.5"])
      #expect(response.status == .created)
      #expect(response.object["role"] as? String == "owner")
      let cookie = try #require(response.headers[.setCookie])
      #expect(cookie.contains("HttpOnly"))
      #expect(cookie.contains("SameSite=Lax"))
      #expect(!cookie.contains("Secure"))

      let pair = String(cookie.split(separator: ";")[0])
      let me = try await client.send(.get, "/api/v1/me", headers: [.cookie: pair])
      #expect(me.status == .ok)
      #expect(me.object["name"] as? String == "ada")
      let settings = try #require(me.object["settings"] as? [String: Any])
      #expect(settings["timeZone"] as? String == "Europe/Berlin")
      // The browser's locale, and the week starting where it starts it; the language still follows the browser.
      #expect(settings["locale"] as? String == "de_DE")
      #expect(settings["firstWeekday"] as? String == "monday")
      #expect(settings["language"] == nil)

      let again = try await client.send(.post, "/api/v1/setup", json: ["name": "eve", "password": "correct horse"])
      #expect(again.status == .conflict)
      #expect(again.headers[.contentType] == "application/problem+json")
      #expect(again.detail.contains("already set up"))
    }
  }

  /// Two people opening a new server at once: one becomes the owner, the other is told the
  /// server is set up, and the store holds exactly one owner.
  @Test func racingSetUpsMakeOneOwner() async throws {
    let server = try TestServer()
    let statuses = try await server.test { client in
      try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<8 {
          group.addTask {
            try await client.send(.post, "/api/v1/setup", json: ["name": "owner\(index)", "password": "correct horse"])
              .status.code
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(statuses.sorted() == [201] + Array(repeating: 409, count: 7))
    let owner = try #require(try await server.store.ownerID())
    #expect(try await server.store.users().count == 1)
    #expect(try await server.store.users().first?.id == owner)
  }

  /// Behind a trusted proxy: ProxiedRequestTests. Here nobody is trusted, so only the setting.
  @Test func cookiesAreSecureWhenTheServerIsDeclaredHTTPS() async throws {
    try await TestServer(configuration: ServerConfiguration(secureCookies: true)).test { client in
      let response = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse"])
      #expect(response.headers[.setCookie]?.contains("; Secure") == true)
    }
    try await TestServer().test { client in
      let response = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse"],
        headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
      #expect(response.headers[.setCookie]?.contains("Secure") == false)
    }
  }

  @Test func signInIsThrottledAfterFiveFailures() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      for _ in 0..<5 {
        let wrong = try await client.send(.post, "/api/v1/session", json: ["name": "ada", "password": "wrong horse"])
        #expect(wrong.status == .unauthorized)
        #expect(wrong.detail == "The name or the password is wrong.")
      }
      // Even the right password waits now.
      let locked = try await client.send(.post, "/api/v1/session", json: ["name": "ada", "password": "correct horse"])
      #expect(locked.status == .tooManyRequests)
      #expect(locked.headers[.retryAfter] == "900")
    }
  }

  @Test func signOutEndsTheSession() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      let out = try await client.send(.delete, "/api/v1/session", headers: session)
      #expect(out.status == .noContent)
      #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
      #expect(try await client.send(.get, "/api/v1/me", headers: session).status == .unauthorized)
    }
  }

  @Test func signUpIsClosedUnlessTheServerOpensIt() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let closed = try await client.send(.post, "/api/v1/signup", json: ["name": "bob", "password": "battery staple"])
      #expect(closed.status == .forbidden)
    }
    var open = ServerConfiguration()
    open.allowSignUp = true
    try await TestServer(configuration: open).test { client in
      _ = try await client.setUpOwner()
      let made = try await client.send(.post, "/api/v1/signup", json: ["name": "bob", "password": "battery staple"])
      #expect(made.status == .created)
      #expect(made.object["role"] as? String == "member")
    }
  }

  @Test func onlyTheOwnerListsAndAddsAccounts() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let added = try await client.send(
        .post, "/api/v1/users", json: ["name": "bob", "password": "battery staple"], headers: owner)
      #expect(added.status == .created)
      let bob = try await client.signIn("bob", password: "battery staple")
      #expect(try await client.send(.get, "/api/v1/users", headers: bob).status == .forbidden)
      let refused = try await client.send(
        .post, "/api/v1/users", json: ["name": "eve", "password": "battery staple"], headers: bob)
      #expect(refused.status == .forbidden)
      let list = try await client.send(.get, "/api/v1/users", headers: owner)
      #expect(list.array.map { $0["name"] as? String } == ["ada", "bob"])
      #expect(list.array.map { $0["role"] as? String } == ["owner", "member"])
    }
  }

  @Test func apiTokensAreShownOnceListedWithoutSecretsAndRevocable() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      let bearer = try await client.bearer(session, name: "phone")
      #expect(try await client.send(.get, "/api/v1/me", headers: bearer).status == .ok)
      let list = try await client.send(.get, "/api/v1/tokens", headers: bearer)
      #expect(list.array.count == 1)
      #expect(list.array[0]["name"] as? String == "phone")
      #expect(list.array[0]["secret"] == nil)
      let id = try #require(list.array[0]["id"] as? String)
      #expect(try await client.send(.delete, "/api/v1/tokens/\(id)", headers: session).status == .noContent)
      let revoked = try await client.send(.get, "/api/v1/me", headers: bearer)
      #expect(revoked.status == .unauthorized)
      #expect(revoked.detail.contains("unknown, revoked or expired"))
    }
  }

  /// The scheme is read in any case (RFC 9110 11.1) and the spaces around the token are not
  /// part of it; another scheme, or a token cut or padded inside, is refused.
  @Test func aBearerTokenIsReadInAnyCaseAndWithoutItsSpaces() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      let secret = try #require(try await client.bearer(session)[.authorization]?.dropFirst(7))
      for accepted in ["Bearer \(secret)", "bearer \(secret)", "BEARER   \(secret)", "bEaReR \(secret) \t"] {
        let response = try await client.send(.get, "/api/v1/me", headers: [.authorization: accepted])
        #expect(response.status == .ok, "\(accepted)")
      }
      for refused in ["Basic \(secret)", "Bearer\(secret)", "Bearer \(secret.dropLast())", "Bearer \(secret)x", "Bearer  "] {
        let response = try await client.send(.get, "/api/v1/me", headers: [.authorization: refused])
        #expect(response.status == .unauthorized, "\(refused)")
        #expect(response.detail.contains("unknown, revoked or expired"), "\(refused)")
      }
    }
  }

  /// Found by schemathesis: a NUL in a token's name was stored cut short, and "\u{0}" alone
  /// left a row that broke every later token list.
  @Test func aTokenNameWithNulIsRefusedAndTheListStillReads() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      let refused = try await client.send(.post, "/api/v1/tokens", json: ["name": "\u{0}"], headers: session)
      #expect(refused.status.code == 422)
      #expect(refused.object["field"] as? String == "token name")
      let list = try await client.send(.get, "/api/v1/tokens", headers: session)
      #expect(list.status == .ok)
      #expect(list.array.isEmpty)
    }
  }

  @Test func oneUserCannotRevokeAnothersToken() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.send(.post, "/api/v1/users", json: ["name": "bob", "password": "battery staple"], headers: owner)
      let bob = try await client.signIn("bob", password: "battery staple")
      let adaToken = try await client.bearer(owner)
      let id = try #require(try await client.send(.get, "/api/v1/tokens", headers: owner).array.first?["id"] as? String)
      #expect(try await client.send(.delete, "/api/v1/tokens/\(id)", headers: bob).status == .notFound)
      #expect(try await client.send(.get, "/api/v1/me", headers: adaToken).status == .ok)
    }
  }

  /// With a header configured and a proxy trusted: ProxiedRequestTests.
  @Test func aUserHeaderMeansNothingUnlessConfigured() async throws {
    let header = HTTPField.Name("X-Remote-User")!
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      #expect(try await client.send(.get, "/api/v1/me", headers: [header: "ada"]).status == .unauthorized)
    }
  }
}
