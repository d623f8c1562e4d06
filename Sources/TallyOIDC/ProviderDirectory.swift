import Foundation

/// The provider's discovery document and key set, fetched when first needed and again once
/// older than `maxAge`: a provider that moves an endpoint or rotates its keys is followed
/// without a restart, and a sign-in costs no request to discovery or to the keys.
actor ProviderDirectory {
  let issuer: IssuerURL
  let transport: any ProviderTransport
  let now: @Sendable () -> Date
  let maxAge: TimeInterval

  private var metadata: (value: ProviderMetadata, fetchedAt: Date)?
  private var keys: (value: PublishedKeySet, fetchedAt: Date, source: URL)?

  init(issuer: IssuerURL, transport: any ProviderTransport, now: @escaping @Sendable () -> Date, maxAge: TimeInterval) {
    self.issuer = issuer
    self.transport = transport
    self.now = now
    self.maxAge = maxAge
  }

  /// The discovery document, fetched if none is kept or the kept one is `maxAge` old. A
  /// failed fetch is thrown, never papered over with an older copy: a document that now names
  /// another issuer must stop sign-ins.
  func currentMetadata() async throws -> ProviderMetadata {
    if let metadata, isFresh(metadata.fetchedAt) { return metadata.value }
    let url = issuer.discoveryURL
    let body = try await fetch(url, limit: ProviderMetadata.maxDocumentBytes) { status in
      OIDCError.discoveryRejected(url: url.absoluteString, reason: "answered HTTP \(status)")
    }
    let fresh = try ProviderMetadata.parse(body, from: url, expecting: issuer)
    metadata = (fresh, now())
    return fresh
  }

  /// The key set, and whether it was fetched by this call. A kept set is used while fresh and
  /// while discovery still names the same `jwks_uri`.
  func currentKeys() async throws -> (keys: PublishedKeySet, fetchedNow: Bool) {
    let source = try await currentMetadata().jwksURI
    if let keys, keys.source == source, isFresh(keys.fetchedAt) { return (keys.value, false) }
    let fresh = try await refetchKeys()
    return (fresh, true)
  }

  /// Fetches the key set again: a token names a key the kept set does not hold, which is how a
  /// provider's key rotation shows.
  func refetchKeys() async throws -> PublishedKeySet {
    let source = try await currentMetadata().jwksURI
    let body = try await fetch(source, limit: ProviderMetadata.maxDocumentBytes) { status in
      OIDCError.keySetRejected(url: source.absoluteString, reason: "answered HTTP \(status)")
    }
    let fresh = try PublishedKeySet.parse(body, from: source)
    keys = (fresh, now(), source)
    return fresh
  }

  private func isFresh(_ fetchedAt: Date) -> Bool {
    now().timeIntervalSince(fetchedAt) < maxAge
  }

  private func fetch(_ url: URL, limit: Int, refusal: (Int) -> OIDCError) async throws -> Data {
    let request = ProviderRequest(method: .get, url: url, headers: ["Accept": "application/json"])
    let response = try await transport.exchange(request, limit: limit)
    guard response.status == 200 else { throw refusal(response.status) }
    return response.body
  }
}
