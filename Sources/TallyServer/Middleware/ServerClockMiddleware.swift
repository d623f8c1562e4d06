import Foundation
import HTTPTypes
import Hummingbird
import TallyHTTP

/// Names the server's clock on every answer (`Tally-Clock`, milliseconds since 1970), so the
/// web app stamps changes made offline by the server's time rather than a phone's, which may
/// be days off (docs/web.md). `Date` cannot serve: it has whole seconds and is the machine's
/// clock, not the one the server stamps with.
struct ServerClockMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  let clock: @Sendable () -> Date

  static let header = HTTPField.Name("Tally-Clock")!

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response = try await next(request, context)
    response.headers[Self.header] = String(Int64((clock().timeIntervalSince1970 * 1000).rounded()))
    return response
  }
}
