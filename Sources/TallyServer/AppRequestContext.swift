import Foundation
import Hummingbird
import Logging
import NIOCore
import TallyStore

/// What a request carries through the middleware: who it is from and how they proved it.
public struct AppRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The signed-in user, set by ``AuthenticationMiddleware``.
  public var user: User?
  public var credential: RequestCredential?
  /// Why credentials the request carried were not accepted, for ``requireUser()`` to say.
  var refusal: Problem?
  /// The client's IP address, for sign-in throttling; "unknown" in router tests.
  public let clientAddress: String

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
  }

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
