import Foundation
import Hummingbird
import Logging
import TallyHTTP

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
      if let problem = Problem.from(error) {
        return try problem.response(from: request, context: context)
      }
      context.logger.error(
        "request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
      return try Problem(.internalServerError, "The server failed; the error is in its log.")
        .response(from: request, context: context)
    }
  }
}
