import HTTPTypes
import Hummingbird
import NIOCore

/// A server-rendered page. Pages hold the signed-in user's data, so no cache keeps them.
struct HTMLPage: ResponseGenerator, Sendable {
  var status: HTTPResponse.Status = .ok
  let html: String

  init(_ html: String, status: HTTPResponse.Status = .ok) {
    self.html = html
    self.status = status
  }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    Response(
      status: status,
      headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: html)))
  }
}

extension Response {
  /// After a form post: the browser fetches `location` with GET, so reloading the page it
  /// lands on never sends the form twice.
  static func seeOther(_ location: String) -> Response {
    Response(status: .seeOther, headers: [.location: location])
  }
}
