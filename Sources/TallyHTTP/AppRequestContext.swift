import Foundation
import Hummingbird
import Logging
import NIOCore
import TallyStore

/// What a request carries through the middleware: who it is from and how they proved it.
public struct AppRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The signed-in user, set by `AuthenticationMiddleware` (TallyServer).
  public var user: User?
  public var credential: RequestCredential?
  /// Why credentials the request carried were not accepted, for ``requireUser()`` to say.
  package var refusal: Problem?
  /// The address the connection comes from; `nil` in router tests.
  public let peerAddress: IPAddress?
  /// The client's IP address, for sign-in throttling and the logs: the peer's, or the one a
  /// trusted proxy forwards (TallyServer's `ForwardedHeadersMiddleware`); "unknown" in router tests.
  public package(set) var clientAddress: String
  /// The person reached Tally over HTTPS, as a trusted proxy says or `--secure-cookies`
  /// declares: cookies are `Secure`, and `Origin` is compared with `https`.
  public package(set) var overHTTPS = false
  /// The connection comes from a trusted proxy, whose user header may be believed.
  package var viaTrustedProxy = false

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    peerAddress = source.channel.remoteAddress?.ipAddress.flatMap { IPAddress($0) }
    clientAddress = peerAddress?.description ?? "unknown"
  }

  /// The scheme the person used to reach Tally.
  package var scheme: String { overHTTPS ? "https" : "http" }

  /// Bodies are read through ``JSONBody`` with an explicit limit, never this default.
  public var maxUploadSize: Int { 1 << 20 }

  /// The signed-in user, or a 401 problem saying why not.
  public func requireUser() throws -> User {
    guard let user else { throw refusal ?? Problem.unauthorized }
    return user
  }
}

/// How a request proved who it is from.
public enum RequestCredential: Sendable {
  case session(BrowserSession)
  case apiToken
  case trustedHeader
}
