import Foundation
import TallyOIDCTesting
import Testing

@testable import TallyOIDC

@Suite struct AuthorizationRequestTests {
  @Test func theAuthorizationURLCarriesTheCodeFlowWithPKCE() async throws {
    let world = SignInWorld()
    let start = try await world.client.start()
    let components = try #require(URLComponents(url: start.authorizationURL, resolvingAgainstBaseURL: false))
    #expect(components.host == "id.example.test")
    #expect(components.path == "/realms/tally/protocol/openid-connect/auth")
    let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    #expect(query["response_type"] == "code")
    #expect(query["client_id"] == "tally-web")
    #expect(query["redirect_uri"] == "https://tally.example/signin/oidc/callback")
    #expect(query["scope"] == "openid profile email groups")
    #expect(query["code_challenge_method"] == "S256")
    #expect(query["state"] == start.state)
    // The pending sign-in behind the state holds the nonce and the verifier the URL commits to.
    let pending = try #require(try await world.client.pendingSignIns.take(state: start.state, at: world.provider.now))
    #expect(query["nonce"] == pending.nonce)
    #expect(query["code_challenge"] == pending.pkce.challenge)
    // Spaces as %20, the redirect URI's reserved characters encoded: nothing a provider could read two ways.
    #expect(components.percentEncodedQuery?.contains("scope=openid%20profile%20email%20groups") == true)
    #expect(components.percentEncodedQuery?.contains("redirect_uri=https%3A%2F%2Ftally.example%2Fsignin%2Foidc%2Fcallback") == true)
  }

  @Test func scopesAreConfigurableAndAlwaysIncludeOpenID() async throws {
    let world = SignInWorld(scopes: ["profile", "email"])
    let start = try await world.client.start()
    #expect(start.authorizationURL.absoluteString.contains("scope=openid%20profile%20email&"))
  }

  @Test func anEndpointsOwnQueryIsKept() {
    let pending = PendingSignIn(
      state: "s", nonce: "n", pkce: PKCE(verifier: "v"), redirectURI: "r", purpose: "", createdAt: Date(timeIntervalSince1970: 0))
    let url = pending.authorizationURL(
      endpoint: URL(string: "https://id.example.org/authorize?tenant=home")!, clientID: "c", scopes: ["openid"])
    #expect(url.absoluteString.hasPrefix("https://id.example.org/authorize?tenant=home&response_type=code&client_id=c&"))
  }

  @Test func theChallengeIsRFC7636sS256() {
    // RFC 7636 Appendix B.
    #expect(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  @Test func everySignInHasItsOwnSecretsOfTheRightForm() {
    var generator = SystemRandomNumberGenerator()
    let now = Date(timeIntervalSince1970: 0)
    let made = (0..<50).map { _ in PendingSignIn.generate(at: now, redirectURI: "r", purpose: "", using: &generator) }
    let secrets = made.flatMap { [$0.state, $0.nonce, $0.pkce.verifier] }
    #expect(Set(secrets).count == secrets.count)
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    for secret in secrets {
      // 32 bytes: 43 base64url characters, within RFC 7636's 43 to 128.
      #expect(secret.count == 43)
      #expect(secret.allSatisfy(unreserved.contains))
    }
  }
}
