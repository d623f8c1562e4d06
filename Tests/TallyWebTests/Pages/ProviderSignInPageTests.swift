import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyAccounts
import TallyHTTP
import TallyOIDC
import TallyOIDCTesting
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// Signing in through the provider as a browser does it, against the tests' own provider:
/// the redirect, the provider's return, the account it opens or refuses, and sign-out.
@Suite struct ProviderSignInPageTests {
  static let host = "tally.example"
  static let redirect = "http://\(host)/signin/oidc/callback"
  static let stateCookie = "tally_oidc_state"
  static let idTokenCookie = "tally_oidc_id"

  struct World {
    let provider: TestProvider
    let server: TestServer

    init(
      rules: ProviderAccountRules = ProviderAccountRules(newAccounts: .create), only: Bool = false,
      trustedUserHeader: String? = nil
    ) throws {
      provider = TestProvider(key: .rsa, now: testNow, redirectURI: ProviderSignInPageTests.redirect)
      var configuration = ServerConfiguration.testing
      configuration.oidc = OIDCSettings(
        client: OIDCConfiguration(
          issuer: try IssuerURL(TestProvider.issuer), clientID: TestProvider.clientID,
          clientSecret: TestProvider.clientSecret, redirectURI: ""),
        rules: rules, displayName: "Home ID", only: only)
      server = try TestServer(configuration: configuration, providerTransport: provider)
    }
  }

  /// What a browser holds after a visit: the cookies set, by name, and where it was sent.
  struct Visit {
    let response: TestResponse
    var cookies: [String: String] {
      var found: [String: String] = [:]
      for line in response.headers[values: .setCookie] {
        let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
        found[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
      }
      return found
    }
    func cookieLine(_ name: String) -> String? { response.headers[values: .setCookie].first { $0.hasPrefix(name + "=") } }
  }

  static func hostHeaders(_ extra: HTTPFields = [:]) -> HTTPFields {
    var headers = extra
    headers[HTTPField.Name("Host")!] = host
    return headers
  }

  /// To the provider and back: the person signs in there (as the provider's next ID token
  /// says) and the browser follows the redirect to the callback with its state cookie.
  static func signIn(
    _ client: any TestClientProtocol, _ world: World, start: String = "/signin/oidc?timeZone=Europe/Berlin",
    headers: HTTPFields = [:], method: HTTPRequest.Method = .get
  ) async throws -> (start: Visit, callback: Visit, callbackQuery: String, callbackCookie: HTTPFields) {
    let started = Visit(response: try await client.send(method, start, headers: hostHeaders(headers)))
    #expect(started.response.status == .seeOther, "\(started.response.text.prefix(300))")
    let location = try #require(started.response.headers[.location].flatMap(URL.init(string:)))
    let returned = try world.provider.authorize(location)
    let state = try #require(started.cookies[Self.stateCookie])
    var query = URLComponents()
    query.queryItems = [
      URLQueryItem(name: "state", value: returned.state), URLQueryItem(name: "code", value: returned.code),
      URLQueryItem(name: "iss", value: returned.issuer),
    ]
    var callbackHeaders = headers
    callbackHeaders[.cookie] = [headers[.cookie], "\(Self.stateCookie)=\(state)"].compactMap { $0 }
      .joined(separator: "; ")
    let callback = Visit(
      response: try await client.send(.get, "/signin/oidc/callback?" + query.percentEncodedQuery!, headers: hostHeaders(callbackHeaders)))
    return (started, callback, query.percentEncodedQuery!, callbackHeaders)
  }

  static func session(_ visit: Visit) throws -> HTTPFields {
    let secret = try #require(visit.cookies[AppServices.sessionCookieName])
    #expect(!secret.isEmpty)
    return [.cookie: "\(AppServices.sessionCookieName)=\(secret)"]
  }

  @Test func theFirstPersonBecomesTheOwnerAndASecondSignInFindsThem() async throws {
    let world = try World()
    try await world.server.test { client in
      let page = try await client.page("/setup", headers: [:])
      #expect(page.contains(#"id="oidc-signin""#) && page.contains("Sign in with Home ID"))

      let first = try await Self.signIn(client, world)
      // The state cookie goes to the callback only, and the provider's return (a top-level
      // GET from another site) still carries it.
      let stateCookie = try #require(first.start.cookieLine(Self.stateCookie))
      #expect(stateCookie.contains("Path=/signin/oidc") && stateCookie.contains("HttpOnly") && stateCookie.contains("SameSite=Lax"))
      #expect(first.callback.response.headers[.location] == "/today")
      let sessionCookie = try #require(first.callback.cookieLine(AppServices.sessionCookieName))
      #expect(sessionCookie.contains("HttpOnly") && sessionCookie.contains("SameSite=Lax"))
      #expect(first.callback.cookies[Self.stateCookie] == "", "the state is cleared")

      let session = try Self.session(first.callback)
      let me = try await client.send(.get, "/api/v1/me", headers: session).object
      #expect(me["name"] as? String == "ada")
      let owner = try #require(await world.server.services.store.ownerID())
      #expect((me["id"] as? String).flatMap(UUID.init(uuidString:)) == owner)
      let settings = try await client.send(.get, "/api/v1/settings", headers: session).object
      #expect(settings["timeZone"] as? String == "Europe/Berlin", "the browser's zone, from the sign-in form")

      let second = try await Self.signIn(client, world)
      let again = try await client.send(.get, "/api/v1/me", headers: try Self.session(second.callback)).object
      #expect(again["id"] as? String == me["id"] as? String)
      #expect(try await world.server.services.store.users().count == 1)
    }
  }

  @Test func invitedServersLetInOnlyPeopleWithAnInvitationOnce() async throws {
    let world = try World(rules: ProviderAccountRules(newAccounts: .invited))
    try await world.server.test { client in
      let owner = try await client.setUpOwner()
      let stranger = try await Self.signIn(client, world)
      #expect(stranger.callback.response.status == .forbidden)
      #expect(stranger.callback.response.text.contains("ask the owner for an invitation link"))
      #expect(stranger.callback.cookies[AppServices.sessionCookieName] == nil)

      let made = try await client.postPageForm("/settings/invitations", [], headers: Self.hostHeaders(owner))
      #expect(made.status == .created)
      let link = try #require(made.text.firstMatch(of: /value="http:\/\/tally\.example(\/signin\/oidc\?invite=[^"]+)"/)?.1)
      let invited = try await Self.signIn(client, world, start: String(link))
      #expect(invited.callback.response.headers[.location] == "/today")
      let member = try await client.send(.get, "/api/v1/me", headers: try Self.session(invited.callback)).object
      #expect(member["name"] as? String == "ada 2", "a taken name gets a number")

      // The link is spent: someone else following it is refused.
      world.provider.bend { $0.claims["sub"] = "someone-else" }
      let late = try await Self.signIn(client, world, start: String(link))
      #expect(late.callback.response.status == .notFound)
      #expect(late.callback.response.text.contains("has been used or has expired"))
      #expect(try await world.server.services.store.users().count == 2)
    }
  }

  @Test func groupsDecideWhoComesInAndWhoMayBecomeTheOwner() async throws {
    let world = try World(rules: ProviderAccountRules(newAccounts: .create, allowedGroup: "family", ownerGroup: "admins"))
    try await world.server.test { client in
      let notOwner = try await Self.signIn(client, world)
      #expect(notOwner.callback.response.status == .forbidden)
      #expect(notOwner.callback.response.text.contains("must be in the group admins"))
      #expect(try await world.server.services.store.users().isEmpty)

      world.provider.bend { $0.claims["groups"] = ["family", "admins"] }
      let admin = try await Self.signIn(client, world)
      #expect(admin.callback.response.headers[.location] == "/today")

      // Dropped from the group at the provider: the account stays, the door closes.
      world.provider.bend { $0.claims["groups"] = ["admins"] }
      let dropped = try await Self.signIn(client, world)
      #expect(dropped.callback.response.status == .forbidden)
      #expect(dropped.callback.response.text.contains("not in the group family"))
      #expect(dropped.callback.cookies[AppServices.sessionCookieName] == nil)
    }
  }

  @Test func aCallbackFromAnotherBrowserOrAReplayOpensNoSession() async throws {
    let world = try World()
    try await world.server.test { client in
      let started = Visit(response: try await client.send(.get, "/signin/oidc", headers: Self.hostHeaders()))
      let returned = try world.provider.authorize(try #require(started.response.headers[.location].flatMap(URL.init(string:))))
      let uri = "/signin/oidc/callback?state=\(returned.state!)&code=\(returned.code!)"
      let noCookie = Visit(response: try await client.send(.get, uri, headers: Self.hostHeaders()))
      #expect(noCookie.response.status == .badRequest)
      #expect(noCookie.response.text.contains("was not started in this browser"))
      #expect(noCookie.cookies[AppServices.sessionCookieName] == nil)

      let cookie: HTTPFields = [.cookie: "\(Self.stateCookie)=\(started.cookies[Self.stateCookie]!)"]
      // A callback pushed into another browser does not spoil the sign-in of the one that began it.
      let done = Visit(response: try await client.send(.get, uri, headers: Self.hostHeaders(cookie)))
      #expect(done.response.headers[.location] == "/today")

      let second = try await Self.signIn(client, world)
      #expect(second.callback.response.headers[.location] == "/today")
      let replayed = try await client.send(
        .get, "/signin/oidc/callback?" + (second.callbackQuery), headers: Self.hostHeaders(second.callbackCookie))
      #expect(replayed.status == .badRequest)
      #expect(replayed.text.contains("names no sign-in in progress"))
      #expect(replayed.headers[values: .setCookie].allSatisfy { !$0.hasPrefix(AppServices.sessionCookieName + "=") })
      #expect(try await world.server.services.store.users().count == 1)
    }
  }

  @Test func aProviderThatIsDownGetsAClearPageAndPasswordsStillWork() async throws {
    let world = try World()
    try await world.server.test { client in
      _ = try await client.setUpOwner()
      world.provider.goDown()
      let started = try await client.send(.get, "/signin/oidc", headers: Self.hostHeaders())
      #expect(started.status == .badGateway)
      #expect(started.text.contains("The sign-in provider cannot be reached now."))
      #expect(started.headers[values: .setCookie].isEmpty)
      let form = try await client.page("/signin", headers: [:])
      #expect(form.contains(#"id="password""#))
      let signedIn = try await client.postPageForm("/signin", [("name", "ada"), ("password", "correct horse")], headers: [:])
      #expect(signedIn.status == .seeOther)
      #expect(signedIn.headers[.location] == "/today")
    }
  }

  @Test func providerOnlyServersShowAndTakeNoPassword() async throws {
    let world = try World(only: true)
    try await world.server.test { client in
      let setUp = try await client.page("/setup", headers: [:])
      #expect(!setUp.contains(#"id="password""#) && setUp.contains(#"id="oidc-signin""#))
      let refused = try await client.postPageForm("/setup", [("name", "eve"), ("password", "correct horse")], headers: [:])
      #expect(refused.status == .forbidden)
      let viaAPI = try await client.send(.post, "/api/v1/setup", json: ["name": "eve", "password": "correct horse"])
      #expect(viaAPI.status == .forbidden)
      #expect(try await world.server.services.store.users().isEmpty)
      _ = try await Self.signIn(client, world)
      // A password the owner set from the CLI opens nothing either.
      let owner = try #require(await world.server.services.store.ownerID())
      try await world.server.services.accounts.setPassword("correct horse", for: owner, at: testNow)
      let session = try await client.send(.post, "/api/v1/session", json: ["name": "ada", "password": "correct horse"])
      #expect(session.status == .forbidden)
    }
  }

  @Test func signingOutEndsTheProvidersSessionToo() async throws {
    let world = try World()
    try await world.server.test { client in
      let signedIn = try await Self.signIn(client, world)
      let idToken = try #require(signedIn.callback.cookies[Self.idTokenCookie])
      #expect(signedIn.callback.cookieLine(Self.idTokenCookie)?.contains("Path=/signout") == true)
      var headers = try Self.session(signedIn.callback)
      headers[.cookie] = headers[.cookie]! + "; \(Self.idTokenCookie)=\(idToken)"
      let out = try await client.postPageForm("/signout", [], headers: Self.hostHeaders(headers))
      #expect(out.status == .seeOther)
      let location = try #require(out.headers[.location].flatMap(URLComponents.init(string:)))
      #expect(location.host == "id.example.test" && location.path.hasSuffix("/logout"))
      let items = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
      #expect(items["client_id"] == TestProvider.clientID)
      #expect(items["post_logout_redirect_uri"] == "http://tally.example/signin")
      #expect(items["id_token_hint"] == idToken)
      let after = try await client.send(.get, "/api/v1/me", headers: try Self.session(signedIn.callback))
      #expect(after.status == .unauthorized)
    }
  }

  @Test func aPasswordAccountLinkedFromSettingsOpensThroughTheProvider() async throws {
    let world = try World(rules: ProviderAccountRules(newAccounts: .invited))
    try await world.server.test { client in
      let owner = try await client.setUpOwner("grace")
      let settings = try await client.page("/settings", headers: owner)
      #expect(settings.contains(#"id="oidc-link""#))
      let linked = try await Self.signIn(client, world, start: "/settings/oidc/link", headers: owner, method: .post)
      #expect(linked.callback.response.headers[.location] == "/settings#account")
      #expect(try await client.page("/settings", headers: owner).contains("This account is linked"))

      let viaProvider = try await Self.signIn(client, world)
      let me = try await client.send(.get, "/api/v1/me", headers: try Self.session(viaProvider.callback)).object
      #expect(me["name"] as? String == "grace")
      #expect(try await world.server.services.store.users().count == 1)
    }
  }

  @Test func formsMayLeadToTheProviderOnceDiscoveryIsRead() async throws {
    let world = try World()
    let signIn = try #require(world.server.services.providerSignIn)
    #expect(signIn.policy.header == PagePolicy.standard)
    try await signIn.checkProvider()
    #expect(signIn.policy.header.hasSuffix("form-action 'self' https://id.example.test"))
    try await world.server.test { client in
      let page = try await client.send(.get, "/signin", headers: [:])
      #expect(page.headers[.contentSecurityPolicy]?.hasSuffix("form-action 'self' https://id.example.test") == true)
    }
  }

  @Test func anotherInstanceOnTheSameDatabaseFinishesTheSignIn() async throws {
    let first = try World()
    // A second instance: its own memory and its own client, the same database.
    var configuration = ServerConfiguration.testing
    configuration.oidc = first.server.services.configuration.oidc
    let second = TestServer(store: first.server.services.store, configuration: configuration, providerTransport: first.provider)
    let started = try await first.server.test { client in
      Visit(response: try await client.send(.get, "/signin/oidc", headers: Self.hostHeaders()))
    }
    let returned = try first.provider.authorize(try #require(started.response.headers[.location].flatMap(URL.init(string:))))
    try await second.test { client in
      let cookie: HTTPFields = [.cookie: "\(Self.stateCookie)=\(started.cookies[Self.stateCookie]!)"]
      let finished = try await client.send(
        .get, "/signin/oidc/callback?state=\(returned.state!)&code=\(returned.code!)", headers: Self.hostHeaders(cookie))
      #expect(finished.headers[.location] == "/today", "\(finished.text.prefix(400))")
    }
  }

  @Test func forgedCallbacksAreThrottledLikePasswords() async throws {
    let world = try World()
    try await world.server.test { client in
      for attempt in 1...6 {
        let forged = try await client.send(.get, "/signin/oidc/callback?state=guess\(attempt)&code=x", headers: Self.hostHeaders())
        #expect(forged.status == (attempt <= 5 ? .badRequest : .tooManyRequests), "attempt \(attempt)")
      }
      // The same address's real sign-in waits for the window too.
      let blocked = try await Self.signIn(client, world)
      #expect(blocked.callback.response.status == .tooManyRequests)
      #expect(blocked.callback.cookies[AppServices.sessionCookieName] == nil)
    }
  }
}
