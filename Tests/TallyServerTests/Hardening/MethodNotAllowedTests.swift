import HTTPTypes
import HummingbirdTesting
import TallyServer
import TallyServerTesting
import Testing

/// Issue 29: a method a path does not take is a 405 with `Allow` naming the ones it does
/// (RFC 9110, 15.5.6), not a 404; a path Tally does not serve is still a 404, and so is an id
/// the user does not have.
@Suite struct MethodNotAllowedTests {
  @Test(arguments: [
    (HTTPRequest.Method.delete, "/api/v1/settings", "GET, PATCH"),
    (.put, "/api/v1/habits", "GET, POST"),
    (.post, "/api/v1/habits/00000000-0000-0000-0000-000000000001/entries/2026-03-08", "DELETE, PUT"),
    (.delete, "/today", "GET"),
    // A literal segment is its own route, whatever `{id}` beside it takes (found by schemathesis).
    (.patch, "/api/v1/habits/order", "PUT"),
    (.put, "/api/v1/shows/tmdb", "POST"),
  ])
  func aMethodThePathDoesNotTakeIsA405NamingTheOnesItDoes(method: HTTPRequest.Method, path: String, allow: String) async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let response = try await client.send(method, path, headers: token)
      #expect(response.status == .methodNotAllowed, "\(method) \(path)")
      #expect(response.headers[.allow] == allow, "\(method) \(path)")
      #expect(response.headers[.contentType] == "application/problem+json")
      #expect(response.detail == "\(path) does not take \(method.rawValue); it takes \(allow).")
    }
  }

  @Test func whatIsNotThereIsStillA404() async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      #expect(try await client.send(.get, "/api/v1/nothing-here", headers: token).status == .notFound)
      let habit = "/api/v1/habits/00000000-0000-0000-0000-000000000001"
      #expect(try await client.send(.get, habit, headers: token).status == .notFound)
    }
  }
}
