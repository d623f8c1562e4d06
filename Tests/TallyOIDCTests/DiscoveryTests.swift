import Foundation
import TallyOIDCTesting
import Testing

@testable import TallyOIDC

@Suite struct DiscoveryTests {
  let discoveryURL = "https://id.example.test/realms/tally/.well-known/openid-configuration"

  @Test func aDocumentNamingAnotherIssuerStopsTheSignIn() async {
    let world = SignInWorld()
    world.provider.editDiscovery { $0["issuer"] = "https://evil.example/realms/tally" }
    let error = await world.refusalOfStart()
    #expect(
      error == .discoveryRejected(url: discoveryURL, reason: "names the issuer https://evil.example/realms/tally, not \(TestProvider.issuer)"))
    #expect(
      error?.description
        == "The identity provider's discovery document at \(discoveryURL) names the issuer https://evil.example/realms/tally, not \(TestProvider.issuer).")
  }

  @Test func aDocumentThatIsNotJSON() async {
    let world = SignInWorld()
    world.provider.answerDiscovery(status: 200, body: "<html><body>Welcome to nginx!</body></html>")
    #expect(await world.refusalOfStart() == .discoveryRejected(url: discoveryURL, reason: "is not a JSON object"))
  }

  @Test func aMissingDocument() async {
    let world = SignInWorld()
    world.provider.answerDiscovery(status: 404, body: "Not Found")
    #expect(await world.refusalOfStart() == .discoveryRejected(url: discoveryURL, reason: "answered HTTP 404"))
  }

  @Test(arguments: ["authorization_endpoint", "token_endpoint", "jwks_uri", "issuer"])
  func aDocumentWithoutARequiredField(field: String) async {
    let world = SignInWorld()
    world.provider.editDiscovery { $0[field] = nil }
    #expect(await world.refusalOfStart() == .discoveryRejected(url: discoveryURL, reason: "has no \(field)"))
  }

  @Test func aTokenEndpointOverPlainHTTPAcrossANetworkIsRefused() async {
    let world = SignInWorld()
    world.provider.editDiscovery { $0["token_endpoint"] = "http://id.example.test/token" }
    #expect(
      await world.refusalOfStart()
        == .discoveryRejected(
          url: discoveryURL,
          reason: "gives a token_endpoint that is not an https URL (or http on loopback): http://id.example.test/token"))
  }

  @Test func anUnusableEndSessionEndpointIsDroppedNotFatal() async throws {
    let world = SignInWorld()
    world.provider.editDiscovery { $0["end_session_endpoint"] = "javascript:alert(1)" }
    #expect(try await world.client.endSessionEndpoint() == nil)
    _ = try await world.signIn()
  }

  @Test func aDocumentLongerThanTheLimit() async {
    let world = SignInWorld()
    world.provider.answerDiscovery(status: 200, body: "{" + String(repeating: " ", count: 300_000) + "}")
    #expect(await world.refusalOfStart() == .answerTooLarge(url: discoveryURL, limit: 262_144))
  }

  @Test func aDocumentTurningBadOnRefreshStopsSignIns() async throws {
    let world = SignInWorld()
    _ = try await world.signIn()
    world.provider.editDiscovery { $0["issuer"] = "https://evil.example" }
    world.provider.advance(3_600)
    #expect(await world.refusalOfStart() == .discoveryRejected(url: discoveryURL, reason: "names the issuer https://evil.example, not \(TestProvider.issuer)"))
  }

  @Test(arguments: [
    "https://id.example.org", "https://id.example.org/realms/tally", "https://id.example.org/application/o/tally/",
    "http://127.0.0.1:9000", "http://localhost:8080/realms/x", "http://[::1]:9000/oidc",
  ])
  func issuersTallyAccepts(text: String) throws {
    #expect(try IssuerURL(text).text == text)
  }

  @Test func issuersTallyRefuses() {
    #expect(throws: OIDCError.issuerRejected(
      issuer: "http://id.example.org", reason: "is not https (plain http is allowed only on loopback: 127.0.0.1, ::1, localhost)")) {
      try IssuerURL("http://id.example.org")
    }
    #expect(throws: OIDCError.issuerRejected(issuer: "http://192.168.1.10:9000", reason: "is not https (plain http is allowed only on loopback: 127.0.0.1, ::1, localhost)")) {
      try IssuerURL("http://192.168.1.10:9000")
    }
    #expect(throws: OIDCError.issuerRejected(issuer: "id.example.org", reason: "is not an absolute URL such as https://id.example.org")) {
      try IssuerURL("id.example.org")
    }
    #expect(throws: OIDCError.issuerRejected(issuer: "https://id.example.org/?tenant=1", reason: "has a query or a fragment")) {
      try IssuerURL("https://id.example.org/?tenant=1")
    }
    #expect(
      OIDCError.issuerRejected(issuer: "http://id.example.org", reason: "is not https").description
        == "The OpenID Connect issuer http://id.example.org is not https.")
  }

  @Test func discoveryLivesUnderTheIssuersPathWithOrWithoutATrailingSlash() throws {
    #expect(
      try IssuerURL("https://auth.example.org/application/o/tally/").discoveryURL.absoluteString
        == "https://auth.example.org/application/o/tally/.well-known/openid-configuration")
    #expect(
      try IssuerURL("https://kc.example.org/realms/home").discoveryURL.absoluteString
        == "https://kc.example.org/realms/home/.well-known/openid-configuration")
  }
}
