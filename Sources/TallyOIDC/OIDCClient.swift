import Foundation

/// Sign-in through one OpenID Connect provider, by the authorization code flow with PKCE:
/// ``start(using:)`` sends a person to the provider, ``finish(_:browserState:)`` checks their
/// return and says who they are. The network comes in as a ``ProviderTransport`` and the clock
/// as `now`, so nothing here reaches either on its own.
public struct OIDCClient: Sendable {
  public let configuration: OIDCConfiguration
  public private(set) var pendingSignIns: any PendingSignInStore
  let directory: ProviderDirectory
  let transport: any ProviderTransport
  let now: @Sendable () -> Date

  public init(
    configuration: OIDCConfiguration, transport: any ProviderTransport, now: @escaping @Sendable () -> Date,
    pendingSignIns: any PendingSignInStore = PendingSignIns()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.now = now
    self.pendingSignIns = pendingSignIns
    directory = ProviderDirectory(
      issuer: configuration.issuer, transport: transport, now: now, maxAge: configuration.metadataMaxAge)
  }

  /// This client with its sign-ins in progress kept in `pendingSignIns`, sharing the discovery
  /// document and keys already fetched: a server checks its provider before it opens the
  /// database that will keep them.
  public func keeping(pendingSignIns: any PendingSignInStore) -> OIDCClient {
    var client = self
    client.pendingSignIns = pendingSignIns
    return client
  }

  /// Where to send the browser, and the state to give it in a cookie: the callback is
  /// accepted only from the browser holding it.
  public struct Start: Sendable, Equatable {
    public let authorizationURL: URL
    public let state: String
  }

  public func start(redirectURI: String? = nil, purpose: String = "") async throws -> Start {
    var generator = SystemRandomNumberGenerator()
    return try await start(redirectURI: redirectURI, purpose: purpose, using: &generator)
  }

  /// Begins a sign-in: fresh `state`, `nonce` and PKCE verifier, kept in ``pendingSignIns``.
  /// `redirectURI`: where this browser comes back, when not the configured one (a server
  /// reached at several addresses); `purpose` comes back with the person.
  public func start(
    redirectURI: String? = nil, purpose: String = "", using generator: inout some RandomNumberGenerator
  ) async throws -> Start {
    let metadata = try await directory.currentMetadata()
    let pending = PendingSignIn.generate(
      at: now(), redirectURI: redirectURI ?? configuration.redirectURI, purpose: purpose, using: &generator)
    try await pendingSignIns.keep(pending)
    let url = pending.authorizationURL(
      endpoint: metadata.authorizationEndpoint, clientID: configuration.clientID, scopes: configuration.scopes)
    return Start(authorizationURL: url, state: pending.state)
  }

  /// Who came back, the purpose their sign-in was begun with, and the ID token that said
  /// so (the provider's sign-out takes it back as `id_token_hint`).
  public struct Finished: Sendable, Equatable {
    public let identity: OIDCIdentity
    public let purpose: String
    public let idToken: String
  }

  /// Checks the provider's redirect back: the state is this browser's and names a sign-in in
  /// progress (which it ends, whatever follows), the provider gave a code, the token endpoint
  /// takes it with the PKCE verifier, and the ID token passes every check.
  /// `browserState`: the state from the cookie ``start(using:)``'s caller set, if the browser
  /// sent one back.
  public func finish(_ callback: CallbackParameters, browserState: String?) async throws -> Finished {
    if let name = callback.oversized {
      throw OIDCError.callbackRejected(reason: "has a \(name) longer than \(CallbackParameters.maxValueBytes) bytes")
    }
    guard let state = callback.state, !state.isEmpty else { throw OIDCError.stateMissing }
    guard let browserState, browserState == state else { throw OIDCError.stateFromAnotherBrowser }
    guard let pending = try await pendingSignIns.take(state: state, at: now()) else { throw OIDCError.stateUnknown }
    if let named = callback.issuer, named != configuration.issuer.text {
      throw OIDCError.callbackRejected(reason: "names the issuer \(clipped(named)), not \(configuration.issuer.text)")
    }
    if let error = callback.error {
      throw OIDCError.providerDeclined(error: clipped(error, to: 80), detail: callback.errorDescription.map { clipped($0) })
    }
    guard let code = callback.code, !code.isEmpty else { throw OIDCError.callbackRejected(reason: "has no code") }
    let idToken = try await exchange(code: code, pending: pending)
    let identity = try await IDTokenVerifier(
      issuer: configuration.issuer, clientID: configuration.clientID, leeway: configuration.leeway
    ).verify(idToken, nonce: pending.nonce, at: now(), keys: directory)
    return Finished(identity: identity, purpose: pending.purpose, idToken: idToken)
  }

  /// Where to send a person who signs out, when the provider offers RP-initiated logout.
  public func endSessionEndpoint() async throws -> URL? {
    try await metadata().endSessionEndpoint
  }

  /// The provider's discovery document, fetched when not kept or too old.
  public func metadata() async throws -> ProviderMetadata {
    try await directory.currentMetadata()
  }

  private func exchange(code: String, pending: PendingSignIn) async throws -> String {
    let endpoint = try await directory.currentMetadata().tokenEndpoint
    let request = TokenExchange(
      clientID: configuration.clientID, clientSecret: configuration.clientSecret, redirectURI: pending.redirectURI
    ).request(code: code, verifier: pending.pkce.verifier, endpoint: endpoint)
    let response = try await transport.exchange(request, limit: TokenExchange.maxResponseBytes)
    return try TokenExchange.idToken(from: response)
  }
}
