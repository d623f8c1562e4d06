import HTTPTypes
import Hummingbird
import Synchronization
import TallyHTTP

/// A path Tally serves, asked with a method none of its routes takes: 405 with `Allow` naming
/// the methods it does take (RFC 9110, 15.5.6), where the router alone would answer 404.
struct MethodNotAllowedMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext

  let routes: RouteMethods

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      // The router's own "no route" (handlers say what is missing with a problem of their own).
      let allowed = routes.methods(for: request.uri.path)
      guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
      let names = allowed.map(\.rawValue).sorted()
      throw Problem(
        .methodNotAllowed,
        "\(request.uri.path) does not take \(request.method.rawValue); it takes \(names.joined(separator: ", ")).",
        allow: names)
    }
  }
}

/// The methods each route path takes, read from the router once its routes are added.
final class RouteMethods: Sendable {
  private let table = Mutex<[(path: RouterPath, methods: Set<HTTPRequest.Method>)]>([])

  func load(_ routes: [Router<AppRequestContext>.RouteDescription]) {
    var byPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
    for route in routes {
      byPath[route.path.description, default: (route.path, [])].methods.insert(route.method)
    }
    table.withLock { $0 = Array(byPath.values) }
  }

  /// Every method of every route whose path matches `path`; empty when none does.
  func methods(for path: String) -> Set<HTTPRequest.Method> {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    return table.withLock { table in
      table.filter { Self.matches($0.path, segments) }.reduce(into: []) { $0.formUnion($1.methods) }
    }
  }

  private static func matches(_ route: RouterPath, _ segments: [Substring]) -> Bool {
    var index = 0
    for component in route.components {
      if component == .recursiveWildcard { return true }
      guard index < segments.count, component ~= segments[index] else { return false }
      index += 1
    }
    return index == segments.count
  }
}
