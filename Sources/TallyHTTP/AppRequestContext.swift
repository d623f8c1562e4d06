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
  public var user: User? { identity?.user }
  public var credential: RequestCredential? { identity?.credential }
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
    guard let user else { throw identity?.refusal ?? Problem.unauthorized }
    return user
  }
}

/// A signed-in user and how they proved it, or why the credentials the request carried were
/// not accepted, for ``AppRequestContext/requireUser()`` to say.
package final class RequestIdentity: Sendable {
  package let user: User?
  package let credential: RequestCredential?
  package let refusal: Problem?

  package init(_ user: User, by credential: RequestCredential) {
    self.user = user
    self.credential = credential
    refusal = nil
  }

  package init(refusal: Problem) {
    user = nil
    credential = nil
    self.refusal = refusal
  }
}

/// How a request proved who it is from.
public enum RequestCredential: Sendable {
  case session(BrowserSession)
  case apiToken
  case trustedHeader
}
