import Foundation
import TallyOIDCTesting
import Testing

@testable import TallyOIDC

/// Each hostile ID token the test provider can be made to sign, refused with its own message.
@Suite struct IDTokenRefusalTests {
  let world = SignInWorld()

  @Test func aTokenFromAnotherIssuer() async {
    world.provider.bend { $0.claims["iss"] = "https://evil.example/realms/tally" }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.wrongIssuer(expected: TestProvider.issuer, found: "https://evil.example/realms/tally")))
    #expect(
      error?.description
        == "The identity provider's ID token was refused: it was issued by https://evil.example/realms/tally, not \(TestProvider.issuer).")
  }

  @Test func anIssuerDifferingOnlyByATrailingSlash() async {
    world.provider.bend { $0.claims["iss"] = TestProvider.issuer + "/" }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.wrongIssuer(expected: TestProvider.issuer, found: TestProvider.issuer + "/")))
  }

  @Test func aTokenForAnotherClient() async {
    world.provider.bend { $0.claims["aud"] = "grafana" }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.wrongAudience(clientID: TestProvider.clientID, found: ["grafana"])))
    #expect(error?.description == "The identity provider's ID token was refused: it is meant for grafana, not the client tally-web.")
  }

  @Test func severalAudiencesNeedThisClientAsAuthorizedParty() async throws {
    world.provider.bend { $0.claims["aud"] = [TestProvider.clientID, "grafana"] }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.wrongAuthorizedParty(clientID: TestProvider.clientID, found: nil)))
    world.provider.bend {
      $0.claims["aud"] = [TestProvider.clientID, "grafana"]
      $0.claims["azp"] = "grafana"
    }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.wrongAuthorizedParty(clientID: TestProvider.clientID, found: "grafana")))
    world.provider.bend {
      $0.claims["aud"] = [TestProvider.clientID, "grafana"]
      $0.claims["azp"] = TestProvider.clientID
    }
    #expect(try await world.signIn().subject == "f3a1c2de-person-1")
  }

  @Test func anExpiredTokenBeyondTheLeeway() async throws {
    let now = Int(world.provider.now.timeIntervalSince1970)
    world.provider.bend { $0.claims["exp"] = now - 59 }
    _ = try await world.signIn()  // within the minute's leeway
    world.provider.bend { $0.claims["exp"] = now - 61 }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.expired(Date(timeIntervalSince1970: Double(now - 61)))))
    #expect(error?.description.contains("it expired at 2026-08-29T") == true)
  }

  @Test func aTokenNotYetValid() async throws {
    let now = Int(world.provider.now.timeIntervalSince1970)
    world.provider.bend { $0.claims["nbf"] = now + 59 }
    _ = try await world.signIn()
    world.provider.bend { $0.claims["nbf"] = now + 120 }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.notYetValid(Date(timeIntervalSince1970: Double(now + 120)))))
  }

  @Test func aTokenIssuedInTheFuture() async throws {
    let now = Int(world.provider.now.timeIntervalSince1970)
    world.provider.bend { $0.claims["iat"] = now + 120 }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.issuedInFuture(Date(timeIntervalSince1970: Double(now + 120)))))
    #expect(error?.description.contains("in the future") == true)
  }

  @Test func aTokenSignedByAnotherKeyUnderTheProvidersKid() async throws {
    world.provider.bend { $0.signature = .key(.otherRSA) }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.badSignature))
    #expect(error?.description == "The identity provider's ID token was refused: its signature does not match the provider's key.")
  }

  @Test(arguments: [TestKey.ec, TestKey.ed])
  func aBadSignatureOnEachCurve(key: TestKey) async throws {
    let world = SignInWorld(key: key)
    let forger = key.alg == "ES256" ? TestKey.es256(kid: key.kid) : TestKey.edDSA(kid: key.kid)
    world.provider.bend { $0.signature = .key(forger) }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.badSignature))
  }

  @Test func anUnsignedToken() async {
    world.provider.bend {
      $0.header["alg"] = "none"
      $0.signature = .empty
    }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.algorithmNotAllowed("none")))
    #expect(
      error?.description
        == "The identity provider's ID token was refused: it is signed with alg none; only RS256, ES256, EdDSA are accepted.")
  }

  @Test func anHS256TokenSignedWithTheProvidersPublicKey() async {
    // The classic confusion: a verifier that let the token choose HMAC would take the
    // public key, which anyone can read, as the shared secret.
    world.provider.bend {
      $0.header["alg"] = "HS256"
      $0.signature = .hmac(Data(TestKey.rsa.publicPEM.utf8))
    }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.algorithmNotAllowed("HS256")))
  }

  @Test func aTokenWhoseAlgorithmDoesNotFitItsKey() async {
    // ES256 claimed for the provider's RSA key: no key fits, even fetched again.
    world.provider.bend { $0.header["alg"] = "ES256" }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.unknownKey(kid: "rsa-1")))
  }

  @Test func aWrongOrMissingNonce() async {
    world.provider.bend { $0.claims["nonce"] = "replayed-from-another-sign-in" }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.nonceMismatch))
    #expect(error?.description == "The identity provider's ID token was refused: its nonce is not the one this sign-in sent.")
    world.provider.bend { $0.claims["nonce"] = nil }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.missingClaim("nonce")))
  }

  @Test(arguments: ["iss", "sub", "aud", "exp", "iat"])
  func aMissingRequiredClaim(name: String) async {
    world.provider.bend { $0.claims[name] = nil }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.missingClaim(name)))
    #expect(error?.description == "The identity provider's ID token was refused: it has no \(name) claim.")
  }

  @Test func aSubjectLongerThanOpenIDConnectAllows() async {
    world.provider.bend { $0.claims["sub"] = String(repeating: "s", count: 256) }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.subjectTooLong(bytes: 256)))
  }

  @Test func aTokenThatIsNotAJWT() async {
    world.provider.answerToken(status: 200, body: #"{"id_token":"not-a-jwt","token_type":"Bearer"}"#)
    let error = await world.refusalOfSignIn()
    guard case .idTokenRefused(.malformed) = error else {
      Issue.record("expected a malformed token, got \(String(describing: error))")
      return
    }
  }

  @Test func aCriticalHeaderExtension() async {
    world.provider.bend { $0.header["crit"] = ["exp"] }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.criticalHeader))
  }
}
