import Foundation
import Hummingbird
import Logging
import TallyHTTP
import TallyWeb

/// Turns every thrown error into `application/problem+json`. What the client got wrong is a
/// 4xx naming it; anything else is logged and answered with a bare 500, which is always a bug.
struct ProblemMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch {
      return try Self.answer(error, to: request, context: context)
    }
  }

  // Not inlined into `handle`, whose async frame a live stream keeps for its whole life.
  @inline(never)
  private static func answer(_ error: any Error, to request: Request, context: Context) throws -> Response {
    if let problem = Problem.from(error) {
      return try ProblemSpeech.translated(problem, for: request).response(from: request, context: context)
    }
    context.logger.error(
      "request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
    return try Problem(.internalServerError, "The server failed; the error is in its log.")
      .response(from: request, context: context)
  }
}
