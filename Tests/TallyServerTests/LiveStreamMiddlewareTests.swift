import Hummingbird
import HummingbirdTesting
import TallyHTTP
import Testing

@testable import TallyServer

/// A live stream's request runs in a child task, so the connection's task, which writes the
/// stream for hours, keeps none of its middleware's and handler's frames; every other request
/// runs where it arrived.
@Suite struct LiveStreamMiddlewareTests {
  /// Tells which task the request reached the middleware in, so the handler can compare.
  struct ArrivalMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
      _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
      var response = try await next(request, context)
      response.headers[.init("Arrived-In")!] = String(Self.currentTask())
      return response
    }

    static func currentTask() -> Int {
      withUnsafeCurrentTask { $0?.hashValue ?? 0 }
    }
  }

  @Test func onlyTheLiveStreamsRequestIsHandledInAChildTask() async throws {
    let router = Router(context: AppRequestContext.self)
    router.addMiddleware {
      ArrivalMiddleware()
      LiveStreamMiddleware(path: "/api/v1/sync/live")
    }
    for path in ["/api/v1/sync/live", "/api/v1/sync"] {
      router.get(.init(stringLiteral: path)) { _, _ in String(ArrivalMiddleware.currentTask()) }
    }
    try await Application(router: router).test(.router) { client in
      for (path, child) in [("/api/v1/sync/live", true), ("/api/v1/sync/live?cursor=1", true), ("/api/v1/sync", false)] {
        try await client.execute(uri: path, method: .get) { response in
          let handled = String(buffer: response.body)
          let arrived = response.headers[.init("Arrived-In")!]
          #expect(response.status == .ok, "\(path)")
          #expect((handled != arrived) == child, "\(path): handled in \(handled), arrived in \(arrived ?? "none")")
        }
      }
    }
  }
}
