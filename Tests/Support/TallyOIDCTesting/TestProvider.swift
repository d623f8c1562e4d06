import Crypto
import Foundation
import Synchronization
import TallyCore
import TallyOIDC

/// An OpenID Connect provider of the tests' own, reached through the transport: discovery, a
/// key set, an authorization step and a token endpoint that checks the client's secret, the
/// code and the PKCE verifier as a real provider does, then signs an ID token a test may have
/// bent. It also keeps the time both sides read, which a test moves by hand.
public final class TestProvider: ProviderTransport {
  public static let issuer = "https://id.example.test/realms/tally"
  public static let clientID = "tally-web"
  /// With the characters client_secret_basic must form-encode before base64.
  public static let clientSecret = "s3cret:with/odd+chars&more="
  public static let redirectURI = "https://tally.example/signin/oidc/callback"
  public static let discoveryPath = "/realms/tally/.well-known/openid-configuration"
  public static let keysPath = "/realms/tally/protocol/openid-connect/certs"
  public static let tokenPath = "/realms/tally/protocol/openid-connect/token"

  /// An ID token as the provider writes it, before it is signed.
  public struct Token: Sendable {
    public var header: [String: any Sendable]
    public var claims: [String: any Sendable]
    public var signature: Signature
  }

  public enum Signature: Sendable {
    case key(TestKey)
    /// `alg: none`: an empty signature.
    case empty
    /// HMAC-SHA-256 with these bytes as the secret.
    case hmac(Data)
  }

  public struct ProviderDown: Error, CustomStringConvertible {
    public var description: String { "connection refused" }
  }

  private struct Grant {
    let challenge: String
    let nonce: String
    let redirectURI: String
  }

  private struct State {
    var now: Date
    var down = false
    var signingKey: TestKey
    var published: [TestKey]
    var editDiscovery: @Sendable (inout [String: any Sendable]) -> Void = { _ in }
    var discoveryAnswer: ProviderResponse?
    var tokenAnswer: ProviderResponse?
    var bend: @Sendable (inout Token) -> Void = { _ in }
    var grants: [String: Grant] = [:]
    var requests: [String: Int] = [:]
  }

  private let state: Mutex<State>
  /// The one redirect URI registered for the client, as a provider holds it.
  public let registeredRedirectURI: String

  public init(
    key: TestKey, now: Date = Date(timeIntervalSince1970: 1_788_000_000), redirectURI: String = TestProvider.redirectURI
  ) {
    state = Mutex(State(now: now, signingKey: key, published: [key]))
    registeredRedirectURI = redirectURI
  }

  // MARK: What a test changes

  public var now: Date { state.withLock { $0.now } }
  public func advance(_ seconds: TimeInterval) { state.withLock { $0.now += seconds } }
  public func goDown() { state.withLock { $0.down = true } }
  /// Signs with `key` from now on, publishing it beside the keys already published or instead.
  public func rotate(to key: TestKey, keepingOld: Bool) {
    state.withLock {
      $0.signingKey = key
      $0.published = keepingOld ? $0.published + [key] : [key]
    }
  }
  public func editDiscovery(_ edit: @escaping @Sendable (inout [String: any Sendable]) -> Void) {
    state.withLock { $0.editDiscovery = edit }
  }
  public func answerDiscovery(status: Int, body: String) {
    state.withLock { $0.discoveryAnswer = ProviderResponse(status: status, body: Data(body.utf8)) }
  }
  public func answerToken(status: Int, body: String) {
    state.withLock { $0.tokenAnswer = ProviderResponse(status: status, body: Data(body.utf8)) }
  }
  /// Changes the next ID tokens before they are signed.
  public func bend(_ change: @escaping @Sendable (inout Token) -> Void) { state.withLock { $0.bend = change } }
  public func requests(to path: String) -> Int { state.withLock { $0.requests[path, default: 0] } }

  // MARK: The browser's visit

  /// What the provider does when the browser arrives at its authorization endpoint and the
  /// person signs in: checks the request and sends the browser back with a fresh code.
  public func authorize(_ url: URL) throws -> CallbackParameters {
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
    guard url.path == "/realms/tally/protocol/openid-connect/auth", value("response_type") == "code",
      value("client_id") == Self.clientID, value("redirect_uri") == registeredRedirectURI,
      value("scope")?.split(separator: " ").contains("openid") == true,
      value("code_challenge_method") == "S256", let challenge = value("code_challenge"),
      let nonce = value("nonce"), let state = value("state")
    else { throw AuthorizationRefused(url: url) }
    let code = UUID().uuidString
    self.state.withLock { $0.grants[code] = Grant(challenge: challenge, nonce: nonce, redirectURI: registeredRedirectURI) }
    return CallbackParameters(state: state, code: code, issuer: Self.issuer)
  }

  public struct AuthorizationRefused: Error { public let url: URL }

  // MARK: ProviderTransport

  public func send(_ request: ProviderRequest, maxBodyBytes: Int) async throws -> ProviderResponse {
    let path = request.url.path
    let down = state.withLock {
      $0.requests[path, default: 0] += 1
      return $0.down
    }
    if down { throw ProviderDown() }
    let response: ProviderResponse
    switch (request.method, request.url.host, path) {
    case (.get, "id.example.test", Self.discoveryPath): response = discovery()
    case (.get, "id.example.test", Self.keysPath): response = keySet()
    case (.post, "id.example.test", Self.tokenPath): response = try token(request)
    default: response = ProviderResponse(status: 404, body: Data())
    }
    // An honest transport reads one byte past the limit, so the client can tell.
    return ProviderResponse(status: response.status, body: response.body.prefix(maxBodyBytes + 1))
  }

  private func discovery() -> ProviderResponse {
    let (answer, edit) = state.withLock { ($0.discoveryAnswer, $0.editDiscovery) }
    if let answer { return answer }
    let base = "https://id.example.test/realms/tally/protocol/openid-connect"
    var document: [String: any Sendable] = [
      "issuer": Self.issuer,
      "authorization_endpoint": base + "/auth",
      "token_endpoint": base + "/token",
      "jwks_uri": base + "/certs",
      "end_session_endpoint": base + "/logout",
      "response_types_supported": ["code"],
      "code_challenge_methods_supported": ["S256"],
    ]
    edit(&document)
    return json(200, document)
  }

  /// The published keys, with two a client must pass over: a symmetric key and an encryption
  /// key whose algorithm jwt-kit does not know.
  private func keySet() -> ProviderResponse {
    let published = state.withLock { $0.published }
    let passedOver: [[String: String]] = [
      ["kty": "oct", "kid": "internal", "k": "c2VjcmV0"],
      ["kty": "RSA", "kid": "enc-1", "use": "enc", "alg": "RSA-OAEP-256", "n": "sXch", "e": "AQAB"],
    ]
    return json(200, ["keys": published.map(\.jwk) + passedOver])
  }

  private func token(_ request: ProviderRequest) throws -> ProviderResponse {
    var form = URLComponents()
    form.percentEncodedQuery = String(decoding: request.body ?? Data(), as: UTF8.self)
    func value(_ name: String) -> String? { form.queryItems?.first { $0.name == name }?.value }
    guard clientAuthenticated(request.headers["Authorization"]) else {
      return json(401, ["error": "invalid_client", "error_description": "Invalid client credentials"])
    }
    guard request.headers["Content-Type"] == "application/x-www-form-urlencoded",
      value("grant_type") == "authorization_code", let code = value("code")
    else { return json(400, ["error": "invalid_request"]) }
    let (grant, key, now, bend, answer) = state.withLock {
      ($0.grants.removeValue(forKey: code), $0.signingKey, $0.now, $0.bend, $0.tokenAnswer)
    }
    if let answer { return answer }
    guard let grant, value("redirect_uri") == grant.redirectURI else {
      return json(400, ["error": "invalid_grant", "error_description": "Code not valid"])
    }
    let verifier = value("code_verifier") ?? ""
    guard Base64URL.encode(Data(SHA256.hash(data: Array(verifier.utf8)))) == grant.challenge else {
      return json(400, ["error": "invalid_grant", "error_description": "PKCE verification failed"])
    }
    let seconds = Int(now.timeIntervalSince1970)
    var token = Token(
      header: ["alg": key.alg, "kid": key.kid, "typ": "JWT"],
      claims: [
        "iss": Self.issuer, "sub": "f3a1c2de-person-1", "aud": Self.clientID, "exp": seconds + 300,
        "iat": seconds, "nonce": grant.nonce, "name": "Ada Lovelace", "preferred_username": "ada",
        "email": "ada@example.org", "email_verified": true, "groups": ["tally-users", "family"],
      ],
      signature: .key(key))
    bend(&token)
    let idToken = try Self.sign(token)
    return json(200, ["access_token": "opaque", "token_type": "Bearer", "expires_in": 300, "id_token": idToken])
  }

  /// client_secret_basic read as a provider reads it: base64, split at the first colon, each
  /// side form-decoded.
  private func clientAuthenticated(_ header: String?) -> Bool {
    guard let header, header.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6))),
      let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
    else { return false }
    return pair[..<colon].removingPercentEncoding == Self.clientID
      && pair[pair.index(after: colon)...].removingPercentEncoding == Self.clientSecret
  }

  public static func sign(_ token: Token) throws -> String {
    let head = Base64URL.encode(try JSONSerialization.data(withJSONObject: token.header as [String: Any], options: .sortedKeys))
    let body = Base64URL.encode(try JSONSerialization.data(withJSONObject: token.claims as [String: Any], options: .sortedKeys))
    let input = Data("\(head).\(body)".utf8)
    let signature: Data
    switch token.signature {
    case .key(let key): signature = try key.sign(input)
    case .empty: signature = Data()
    case .hmac(let secret): signature = Data(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: secret)))
    }
    return "\(head).\(body).\(Base64URL.encode(signature))"
  }

  private func json(_ status: Int, _ object: [String: any Sendable]) -> ProviderResponse {
    ProviderResponse(status: status, body: try! JSONSerialization.data(withJSONObject: object as [String: Any]))
  }
}
