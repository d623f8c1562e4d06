import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import TallyHTTP
import TallyWire

/// Answers a request head NIO cannot read (over ``HTTPLimits``, or not HTTP/1.1) with a
/// problem+json 400 and closes the connection, where Hummingbird would send an empty 400:
/// every refusal a client gets names what is wrong in the same shape (docs/server.md).
final class HTTPParserErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// A response begun and not ended: the error then can only close the connection.
  private var responding = false

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head: responding = true
    case .end: responding = false
    case .body: break
    }
    context.write(data, promise: promise)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
    guard !responding else { return context.close(promise: nil) }
    let problem = Problem(.badRequest, Self.detail(parserError))
    let body = (try? WireJSON.encoder.encode(problem)).map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
    let head = HTTPResponse(
      status: .badRequest,
      headerFields: [.contentType: "application/problem+json", .contentLength: String(body.readableBytes), .connection: "close"])
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(body)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    // After the answer in the pipeline's order, so it is sent before the connection closes.
    context.close(promise: nil)
  }

  static func detail(_ error: HTTPParserError) -> String {
    switch error {
    case .headerOverflow:
      "The request line and each header line must be at most \(HTTPLimits.maxLineSize / 1024) KiB, all headers together "
        + "at most \(HTTPLimits.maxHeadSize / 1024) KiB, in at most \(HTTPLimits.maxHeaderCount) lines."
    default:
      "The request is not HTTP/1.1 this server can read (\(error))."
    }
  }
}
