import Hummingbird
import HummingbirdCore
import NIOCore

/// What one connection may cost before it is answered: a bounded request line and head, and
/// a time-out for a head that never completes or a connection left idle (docs/server.md). A
/// head over the limits is answered with a problem+json 400 (`HTTPParserErrorResponder`).
public enum HTTPLimits {
  /// The request line, and any one header line, at most 8 KiB (what common proxies allow).
  public static let maxLineSize = 8 << 10
  /// All header lines together.
  public static let maxHeadSize = 32 << 10
  public static let maxHeaderCount = 100

  /// The HTTP/1.1 server with these limits. Hummingbird's idle time-out starts when the
  /// connection opens and after each answer, and is only reset by a complete request head, so
  /// it is also the time allowed to send a head however slowly its bytes trickle in.
  public static func server(idleTimeout: Duration) -> HTTPServerBuilder {
    let configuration = HTTP1Channel.Configuration(
      additionalChannelHandlers: [HTTPParserErrorResponder()],
      idleTimeout: TimeAmount(idleTimeout),
      httpDecoderConfiguration: .init(
        maxHeaderFieldSize: maxLineSize, maxHeaderListSize: maxHeadSize, maxHeaderFieldCount: maxHeaderCount))
    return HTTPServerBuilder { responder in
      SmallFirstReads(base: HTTP1Channel(responder: responder, configuration: configuration))
    }
  }
}
