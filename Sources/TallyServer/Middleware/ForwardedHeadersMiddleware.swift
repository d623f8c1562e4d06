import HTTPTypes
import Hummingbird
import Logging
import TallyHTTP

/// Settles who a request is from before anything else looks: the connection's peer, or, when
/// the peer is a trusted proxy, the client and scheme the proxy forwards. Runs first, so the
/// logs, the sign-in throttle, cookies and the cross-site check all see the same answer.
struct ForwardedHeadersMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  let proxies: TrustedProxies
  /// `--secure-cookies`: the server is reached over HTTPS whatever the headers say.
  let alwaysHTTPS: Bool

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var context = context
    let client = proxies.client(
      peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor],
      forwardedProto: request.headers[.xForwardedProto])
    context.clientAddress = client.address
    context.overHTTPS = alwaysHTTPS || client.overHTTPS
    context.viaTrustedProxy = client.viaTrustedProxy
    context.logger[metadataKey: "client"] = .string(client.address)
    return try await next(request, context)
  }
}

extension HTTPField.Name {
  static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
  static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
