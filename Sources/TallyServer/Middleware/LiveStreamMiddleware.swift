import Hummingbird
import TallyHTTP

/// A live stream (`GET /api/v1/sync/live`) stays open for hours on its connection's task, and a
/// task keeps the memory of the deepest chain of calls it ever made until it ends: Swift's task
/// allocator frees no slab early (docs/sync.md, "Where a stream's bytes go"). So that request's
/// middleware and handler run in a child task, which ends once they have made the response;
/// the connection's task then writes the stream's events without ever having gone deeper than
/// this. Every other request goes straight on.
struct LiveStreamMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  let path: String

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard request.uri.path == path else { return try await next(request, context) }
    return try await Self.inChildTask(request, context: context, next: next)
  }

  @inline(never)
  private static func inChildTask(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    try await withoutActuallyEscaping(next) { next in
      // The child is awaited before this returns, so `next` never outlives the call.
      let handle = UncheckedNext(next: next)
      return try await withThrowingTaskGroup(of: Response.self) { group in
        group.addTask { try await handle.next(request, context) }
        guard let response = try await group.next() else { throw CancellationError() }
        return response
      }
    }
  }

  private struct UncheckedNext: @unchecked Sendable {
    let next: (Request, Context) async throws -> Response
  }
}
