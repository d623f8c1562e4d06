import Foundation
import TallyOIDC
import TallyOIDCTesting

/// The test provider and a client registered with it, reading the provider's time.
struct SignInWorld {
  let provider: TestProvider
  let client: OIDCClient

  init(key: TestKey = .rsa, scopes: [String] = OIDCConfiguration.defaultScopes, pendingSignIns: PendingSignIns = PendingSignIns()) {
    let provider = TestProvider(key: key)
    self.provider = provider
    client = OIDCClient(
      configuration: OIDCConfiguration(
        issuer: try! IssuerURL(TestProvider.issuer), clientID: TestProvider.clientID,
        clientSecret: TestProvider.clientSecret, redirectURI: TestProvider.redirectURI, scopes: scopes),
      transport: provider, now: { provider.now }, pendingSignIns: pendingSignIns)
  }

  /// A whole sign-in: to the provider, the person signs in, back with the code.
  func signIn() async throws -> OIDCIdentity {
    let start = try await client.start()
    let callback = try provider.authorize(start.authorizationURL)
    return try await client.finish(callback, browserState: start.state).identity
  }

  func refusalOfSignIn() async -> OIDCError? { await refusal { try await signIn() } }

  func refusalOfStart() async -> OIDCError? { await refusal { try await client.start() } }

  func refusalOfFinish(_ callback: CallbackParameters, browserState: String?) async -> OIDCError? {
    await refusal { try await client.finish(callback, browserState: browserState) }
  }
}

/// The `OIDCError` `attempt` throws; nil when it throws nothing or something else, which the
/// caller's `#expect(error == …)` then reports.
func refusal<T>(_ attempt: () async throws -> T) async -> OIDCError? {
  do {
    _ = try await attempt()
    return nil
  } catch let error as OIDCError {
    return error
  } catch {
    return nil
  }
}
