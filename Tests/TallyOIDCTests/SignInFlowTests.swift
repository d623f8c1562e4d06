import Foundation
import TallyOIDCTesting
import Testing

@testable import TallyOIDC

@Suite struct SignInFlowTests {
  @Test(arguments: [TestKey.rsa, TestKey.ec, TestKey.ed])
  func aPersonSignsInWithTokensSignedByEachAlgorithm(key: TestKey) async throws {
    let world = SignInWorld(key: key)
    let person = try await world.signIn()
    #expect(
      person
        == OIDCIdentity(
          issuer: TestProvider.issuer, subject: "f3a1c2de-person-1", name: "Ada Lovelace", preferredUsername: "ada",
          email: "ada@example.org", emailVerified: true, groups: ["tally-users", "family"]))
    // Discovery and keys fetched once each; the code went to the token endpoint once.
    #expect(world.provider.requests(to: TestProvider.discoveryPath) == 1)
    #expect(world.provider.requests(to: TestProvider.keysPath) == 1)
    #expect(world.provider.requests(to: TestProvider.tokenPath) == 1)
  }

  @Test func aSecondSignInReusesDiscoveryAndKeysUntilTheyAreAnHourOld() async throws {
    let world = SignInWorld()
    _ = try await world.signIn()
    world.provider.advance(3_599)
    _ = try await world.signIn()
    #expect(world.provider.requests(to: TestProvider.discoveryPath) == 1)
    #expect(world.provider.requests(to: TestProvider.keysPath) == 1)
    world.provider.advance(2)
    _ = try await world.signIn()
    #expect(world.provider.requests(to: TestProvider.discoveryPath) == 2)
    #expect(world.provider.requests(to: TestProvider.keysPath) == 2)
  }

  @Test func profileClaimsAreReadLenientlyAndTheirAbsenceIsNoRefusal() async throws {
    let world = SignInWorld()
    world.provider.bend {
      $0.claims["email_verified"] = "true"
      $0.claims["groups"] = "tally-owners"
      $0.claims["name"] = 42
      $0.claims["email"] = nil
      $0.claims["preferred_username"] = nil
    }
    let person = try await world.signIn()
    #expect(person == OIDCIdentity(issuer: TestProvider.issuer, subject: "f3a1c2de-person-1", emailVerified: true, groups: ["tally-owners"]))
  }

  @Test func theRedirectAndPurposeGivenAtTheStartComeBackWithThePerson() async throws {
    let elsewhere = "https://tally.home.arpa:8443/signin/oidc/callback"
    let provider = TestProvider(key: .rsa, redirectURI: elsewhere)
    let client = OIDCClient(
      configuration: OIDCConfiguration(
        issuer: try IssuerURL(TestProvider.issuer), clientID: TestProvider.clientID,
        clientSecret: TestProvider.clientSecret, redirectURI: TestProvider.redirectURI),
      transport: provider, now: { provider.now })
    let start = try await client.start(redirectURI: elsewhere, purpose: "invite:abc")
    // The provider refuses any redirect but the one registered, and the token request must
    // repeat it, so the sign-in completing shows both used the address given here.
    let callback = try provider.authorize(start.authorizationURL)
    let finished = try await client.finish(callback, browserState: start.state)
    #expect(finished.purpose == "invite:abc")
    #expect(finished.identity.subject == "f3a1c2de-person-1")
  }

  @Test func aReplayedCallbackIsRefused() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let callback = try world.provider.authorize(start.authorizationURL)
    _ = try await world.client.finish(callback, browserState: start.state)
    let error = await world.refusalOfFinish(callback, browserState: start.state)
    #expect(error == .stateUnknown)
    #expect(error?.description.hasPrefix("The sign-in callback names no sign-in in progress") == true)
    // Refused before the code reached the provider again.
    #expect(world.provider.requests(to: TestProvider.tokenPath) == 1)
  }

  @Test func aCallbackWithoutStateIsRefused() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    var callback = try world.provider.authorize(start.authorizationURL)
    callback.state = nil
    let error = await world.refusalOfFinish(callback, browserState: start.state)
    #expect(error == .stateMissing)
    #expect(error?.description == "The sign-in callback has no state; start signing in again.")
    #expect(world.provider.requests(to: TestProvider.tokenPath) == 0)
  }

  @Test func aCallbackFromAnotherBrowserIsRefusedAndEndsNothing() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let callback = try world.provider.authorize(start.authorizationURL)
    #expect(await world.refusalOfFinish(callback, browserState: nil) == .stateFromAnotherBrowser)
    #expect(await world.refusalOfFinish(callback, browserState: "forged") == .stateFromAnotherBrowser)
    // The browser that began it still finishes it.
    _ = try await world.client.finish(callback, browserState: start.state)
  }

  @Test func aSignInOlderThanTenMinutesCannotBeFinished() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let callback = try world.provider.authorize(start.authorizationURL)
    world.provider.advance(601)
    #expect(await world.refusalOfFinish(callback, browserState: start.state) == .stateUnknown)
  }

  @Test func aCodeAuthorizedForAnotherSignInFailsItsPKCECheckAtTheProvider() async throws {
    // An attacker's code, authorized with the attacker's challenge, pushed into this
    // browser's callback: the provider refuses this sign-in's verifier for it.
    let world = SignInWorld()
    let attackers = try await world.client.start()
    let stolen = try world.provider.authorize(attackers.authorizationURL)
    let victims = try await world.client.start()
    var callback = try world.provider.authorize(victims.authorizationURL)
    callback.code = stolen.code
    let error = await world.refusalOfFinish(callback, browserState: victims.state)
    #expect(error == .tokenRequestRefused(status: 400, error: "invalid_grant", detail: "PKCE verification failed"))
    #expect(
      error?.description
        == "The identity provider refused the sign-in code (HTTP 400, invalid_grant, PKCE verification failed).")
  }

  @Test func theClientAuthenticatesWithItsSecretFormEncoded() async throws {
    // The provider decodes the Basic header as RFC 6749 §2.3.1 says; a secret with `:` `/`
    // `+` `&` `=` signs in only if each was encoded.
    let world = SignInWorld()
    _ = try await world.signIn()
    let request = TokenExchange(clientID: "a:b", clientSecret: "c d+e", redirectURI: "x")
      .request(code: "k", verifier: "v", endpoint: URL(string: "https://id.example.test/token")!)
    #expect(request.headers["Authorization"] == "Basic " + Data("a%3Ab:c%20d%2Be".utf8).base64EncodedString())
    #expect(String(decoding: request.body!, as: UTF8.self) == "grant_type=authorization_code&code=k&redirect_uri=x&code_verifier=v")
  }

  @Test func aWrongClientSecretIsTheProvidersRefusal() async throws {
    let provider = TestProvider(key: .rsa)
    let client = OIDCClient(
      configuration: OIDCConfiguration(
        issuer: try IssuerURL(TestProvider.issuer), clientID: TestProvider.clientID, clientSecret: "guess",
        redirectURI: TestProvider.redirectURI),
      transport: provider, now: { provider.now })
    let start = try await client.start()
    let callback = try provider.authorize(start.authorizationURL)
    let error = await refusal { try await client.finish(callback, browserState: start.state) }
    #expect(error == .tokenRequestRefused(status: 401, error: "invalid_client", detail: "Invalid client credentials"))
  }

  @Test func theProviderDeclining() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let callback = CallbackParameters(state: start.state, error: "access_denied", errorDescription: "Not in the allowed group")
    let error = await world.refusalOfFinish(callback, browserState: start.state)
    #expect(error == .providerDeclined(error: "access_denied", detail: "Not in the allowed group"))
    #expect(error?.description == "The identity provider did not sign you in (access_denied: Not in the allowed group).")
    // The state is spent: the person starts again.
    #expect(await world.refusalOfFinish(callback, browserState: start.state) == .stateUnknown)
  }

  @Test func aCallbackNamingAnotherIssuerIsRefused() async throws {
    // RFC 9207: a response from another provider, mixed into this sign-in.
    let world = SignInWorld()
    let start = try await world.client.start()
    var callback = try world.provider.authorize(start.authorizationURL)
    callback.issuer = "https://evil.example"
    let error = await world.refusalOfFinish(callback, browserState: start.state)
    #expect(error == .callbackRejected(reason: "names the issuer https://evil.example, not \(TestProvider.issuer)"))
    #expect(world.provider.requests(to: TestProvider.tokenPath) == 0)
  }

  @Test func anOversizedOrCodelessCallbackIsRefused() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let huge = CallbackParameters(state: start.state, code: String(repeating: "x", count: 4097))
    #expect(
      await world.refusalOfFinish(huge, browserState: start.state)
        == .callbackRejected(reason: "has a code longer than 4096 bytes"))
    let codeless = CallbackParameters(state: start.state)
    #expect(
      await world.refusalOfFinish(codeless, browserState: start.state)
        == .callbackRejected(reason: "has no code"))
  }

  @Test func aProviderThatIsDownIsNamedInTheError() async throws {
    let world = SignInWorld()
    world.provider.goDown()
    let error = await world.refusalOfStart()
    let discovery = "https://id.example.test/realms/tally/.well-known/openid-configuration"
    #expect(error == .providerUnreachable(url: discovery, reason: "connection refused"))
    #expect(error?.description == "The identity provider could not be reached at \(discovery): connection refused.")
  }

  @Test func aProviderGoingDownDuringTheSignInIsNamedInTheError() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let callback = try world.provider.authorize(start.authorizationURL)
    world.provider.goDown()
    let error = await world.refusalOfFinish(callback, browserState: start.state)
    #expect(
      error
        == .providerUnreachable(
          url: "https://id.example.test/realms/tally/protocol/openid-connect/token", reason: "connection refused"))
  }

  @Test func aTokenResponseWithoutAnIDTokenOrTooLongIsRefused() async throws {
    let world = SignInWorld()
    world.provider.answerToken(status: 200, body: #"{"access_token":"a","token_type":"Bearer"}"#)
    #expect(
      await world.refusalOfSignIn()
        == .tokenResponseRejected(reason: "has no id_token (is the openid scope allowed for this client?)"))
    world.provider.answerToken(status: 200, body: String(repeating: " ", count: 300_000) + "{}")
    #expect(
      await world.refusalOfSignIn()
        == .answerTooLarge(url: "https://id.example.test/realms/tally/protocol/openid-connect/token", limit: 262_144))
  }

  @Test func theEndSessionEndpointIsKept() async throws {
    let world = SignInWorld()
    #expect(
      try await world.client.endSessionEndpoint()
        == URL(string: "https://id.example.test/realms/tally/protocol/openid-connect/logout"))
  }
}
