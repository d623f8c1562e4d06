import Foundation
import Hummingbird
import Logging
import NIOCore
import TallyStore

/// What a request carries through the middleware: who it is from and how they proved it.
public struct AppRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// Who the request is from, set once by `AuthenticationMiddleware` (TallyServer). One
  /// reference rather than three values: the context is copied into every middleware's async
  /// frame, and a live stream keeps the deepest frames its request reached for as long as it
  /// is open (docs/sync.md "Where a stream's bytes go").
  package var identity: RequestIdentity?
  /// The signed-in user.
  public var user: User? {
    if case .signedIn(let user, _) = identity { user } else { nil }
  }
  public var credential: RequestCredential? {
    if case .signedIn(_, let credential) = identity { credential } else { nil }
  }
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
    switch identity {
    case .signedIn(let user, _): return user
    case .refused(let problem): throw problem
    case nil: throw Problem.unauthorized
    }
  }
}

/// A signed-in user and how they proved it, or why the credentials the request carried were
/// not accepted, for ``AppRequestContext/requireUser()`` to say. Indirect, so the context holds
/// one reference however large a user or a problem is.
package indirect enum RequestIdentity: Sendable {
  case signedIn(User, RequestCredential)
  case refused(Problem)
}

/// How a request proved who it is from.
public enum RequestCredential: Sendable {
  case session(BrowserSession)
  case apiToken
  case trustedHeader
}
