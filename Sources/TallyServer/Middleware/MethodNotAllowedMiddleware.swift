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

  /// The methods of the route the router picks for `path`; empty when none matches. As the
  /// router does, a literal segment wins over a parameter (`/habits/order` over
  /// `/habits/{id}`): the other route's methods are not this path's.
  func methods(for path: String) -> Set<HTTPRequest.Method> {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    return table.withLock { table in
      let matching = table.compactMap { route in Self.rank(route.path, segments).map { (rank: $0, route.methods) } }
      return matching.max { $0.rank.lexicographicallyPrecedes($1.rank) }?.1 ?? []
    }
  }

  /// How closely `route` matches `segments`, segment by segment (2 a literal, 1 a parameter
  /// or wildcard, 0 the rest of the path); `nil` when it does not match.
  private static func rank(_ route: RouterPath, _ segments: [Substring]) -> [Int]? {
    var rank: [Int] = []
    for component in route.components {
      if component == .recursiveWildcard { return rank + [0] }
      guard rank.count < segments.count, component ~= segments[rank.count] else { return nil }
      rank.append(component == segments[rank.count] ? 2 : 1)
    }
    return rank.count == segments.count ? rank : nil
  }
}
