import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyHTTP
import Testing

/// A webhook receiver on loopback: records every POST and answers 500 to the first
/// `failFirst` of them.
package final class Receiver: @unchecked Sendable {
  package struct Received {
    package var path: String
    package var headers: [String: String]
    package var body: Data
    package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
  }

  private let lock = NSLock()
  private var received: [Received] = []
  private var failuresLeft: Int

  package init(failFirst: Int = 0) { failuresLeft = failFirst }

  package var requests: [Received] { lock.withLock { received } }

  package func setFailures(_ count: Int) { lock.withLock { failuresLeft = count } }

  fileprivate func record(_ request: Received) -> HTTPResponse.Status {
    lock.withLock {
      received.append(request)
      guard failuresLeft > 0 else { return .ok }
      failuresLeft -= 1
      return .internalServerError
    }
  }

  /// Runs `body` while the receiver listens; `base` is `http://127.0.0.1:PORT`.
  package static func listening<T: Sendable>(
    failFirst: Int = 0, _ body: @Sendable (_ base: String, _ receiver: Receiver) async throws -> T
  ) async throws -> T {
    let receiver = Receiver(failFirst: failFirst)
    let router = Router()
    let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
      let bytes = try await request.body.collect(upTo: 1 << 20)
      var headers: [String: String] = [:]
      for field in request.headers { headers[field.name.canonicalName] = field.value }
      let status = receiver.record(Received(path: request.uri.path, headers: headers, body: Data(bytes.readableBytesView)))
      return Response(status: status)
    }
    // ntfy's requests go to the server root, the others to a path.
    router.post("/", use: handler)
    router.post("**", use: handler)
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in
      try await body("http://127.0.0.1:\(try #require(client.port))", receiver)
    }
  }
}
