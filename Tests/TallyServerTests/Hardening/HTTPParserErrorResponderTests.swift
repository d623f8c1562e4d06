import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing

@testable import TallyServer
import TallyServerTesting
import TallyHTTP

/// A head NIO cannot read gets the same problem+json every other refusal has, then the
/// connection closes; one that fails mid-answer only closes, so no answer is garbled.
@Suite struct HTTPParserErrorResponderTests {
  @Test(arguments: [HTTPParserError.headerOverflow, .invalidMethod])
  func anUnreadableHeadIsAnsweredWithAProblemAndClosed(_ error: HTTPParserError) throws {
    let channel = EmbeddedChannel(handler: HTTPParserErrorResponder())
    channel.pipeline.fireErrorCaught(error)
    guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
      Issue.record("no response head")
      return
    }
    #expect(head.status == .badRequest)
    #expect(head.headerFields[.contentType] == "application/problem+json")
    guard case .body(let body)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
      Issue.record("no body")
      return
    }
    let problem = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
    #expect(problem?["status"] as? Int == 400)
    #expect((problem?["detail"] as? String)?.isEmpty == false)
    if error == .headerOverflow { #expect((problem?["detail"] as? String)?.contains("8 KiB") == true) }
    #expect(head.headerFields[.contentLength] == String(body.readableBytes))
    guard case .end? = try channel.readOutbound(as: HTTPResponsePart.self) else {
      Issue.record("no end")
      return
    }
    #expect(!channel.isActive)
  }

  @Test func anErrorMidAnswerOnlyCloses() throws {
    let channel = EmbeddedChannel(handler: HTTPParserErrorResponder())
    try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
    _ = try channel.readOutbound(as: HTTPResponsePart.self)
    channel.pipeline.fireErrorCaught(HTTPParserError.headerOverflow)
    #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
    #expect(!channel.isActive)
  }
}
