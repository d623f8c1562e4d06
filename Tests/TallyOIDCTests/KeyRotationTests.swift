import Foundation
import TallyOIDCTesting
import Testing

@testable import TallyOIDC

@Suite struct KeyRotationTests {
  @Test func aTokenNamingAnUnknownKeyRefetchesTheKeysExactlyOnceThenIsRefused() async throws {
    let world = SignInWorld()
    _ = try await world.signIn()
    #expect(world.provider.requests(to: TestProvider.keysPath) == 1)
    world.provider.bend { $0.header["kid"] = "ghost" }
    let error = await world.refusalOfSignIn()
    #expect(error == .idTokenRefused(.unknownKey(kid: "ghost")))
    #expect(
      error?.description
        == "The identity provider's ID token was refused: its key (kid ghost) is not in the provider's current key set.")
    #expect(world.provider.requests(to: TestProvider.keysPath) == 2)
  }

  @Test func keysJustFetchedAreNotFetchedAgainForAnUnknownKey() async throws {
    let world = SignInWorld()
    world.provider.bend { $0.header["kid"] = "ghost" }
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.unknownKey(kid: "ghost")))
    #expect(world.provider.requests(to: TestProvider.keysPath) == 1)
  }

  @Test func aRotatedKeyIsFoundByFetchingTheKeysAgain() async throws {
    let world = SignInWorld(key: .rsa)
    _ = try await world.signIn()
    world.provider.rotate(to: .ec, keepingOld: false)
    let person = try await world.signIn()
    #expect(person.subject == "f3a1c2de-person-1")
    #expect(world.provider.requests(to: TestProvider.keysPath) == 2)
    // The new set is kept: the next sign-in fetches nothing.
    _ = try await world.signIn()
    #expect(world.provider.requests(to: TestProvider.keysPath) == 2)
  }

  @Test func aTokenWithoutKidNeedsASingleKeyThatFits() async throws {
    let world = SignInWorld(key: .ec)
    world.provider.bend { $0.header["kid"] = nil }
    #expect(try await world.signIn().subject == "f3a1c2de-person-1")
    // Two keys that fit: which one signed is not guessed.
    world.provider.rotate(to: .es256(kid: "ec-2"), keepingOld: true)
    world.provider.advance(3_600)
    #expect(await world.refusalOfSignIn() == .idTokenRefused(.ambiguousKey))
  }

  @Test func theKeySetPassesOverKeysItCannotUseAndRefusesASetWithNone() throws {
    let source = URL(string: "https://id.example.test/certs")!
    let set = try PublishedKeySet.parse(
      Data(
        #"""
        {"keys":[{"kty":"oct","kid":"s","k":"c2VjcmV0"},
                 {"kty":"RSA","kid":"e","use":"enc","alg":"RSA-OAEP-256","n":"sXch","e":"AQAB"},
                 {"kty":"OKP","crv":"Ed25519","kid":"ed","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}
        """#.utf8),
      from: source)
    #expect(set.keys.count == 1)
    guard case .found = set.key(kid: "ed", algorithm: .edDSA) else {
      Issue.record("the Ed25519 key was not kept")
      return
    }
    #expect(throws: OIDCError.keySetRejected(url: source.absoluteString, reason: "holds no signing key Tally can read")) {
      try PublishedKeySet.parse(Data(#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#.utf8), from: source)
    }
    #expect(throws: OIDCError.keySetRejected(url: source.absoluteString, reason: "is not a JSON object with a keys array")) {
      try PublishedKeySet.parse(Data("<html>".utf8), from: source)
    }
  }
}
