import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyPostgres
import TallyPostgresTesting
import TallyServer
import TallyServerTesting
import Testing

/// Kept answers belong to their user: one user's write leaves every other user's kept list and
/// Today page, and their ETags, as they were (a 304, not a fresh computation), on both engines;
/// their own write still gives them a fresh answer.
@Suite struct PerUserRevisionTests {
  enum Engine: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    static let all: [Engine] = PostgresTesting.url == nil ? [.sqlite] : [.sqlite, .postgres]
    var testDescription: String { rawValue }

    func server() async throws -> TestServer {
      switch self {
      case .sqlite: try TestServer()
      case .postgres: TestServer(store: PostgresStore(try await PostgresTesting.database(), clock: { testNow }))
      }
    }
  }

  @Test(arguments: Engine.all) func anotherUsersWriteLeavesKeptAnswersAndETags(_ engine: Engine) async throws {
    try await engine.server().test { client in
      let ada = try await client.setUpOwner()
      _ = try await client.send(.post, "/api/v1/users", json: ["name": "bob", "password": "battery staple"], headers: ada)
      let bob = try await client.signIn("bob", password: "battery staple")
      let adas = try #require(
        try await client.send(.post, "/api/v1/habits", json: ["name": "Read", "createdDay": "2026-03-01"], headers: ada)
          .object["id"] as? String)
      _ = try await client.send(.post, "/api/v1/habits", json: ["name": "Walk", "createdDay": "2026-03-01"], headers: bob)

      let kept = ["/api/v1/habits?include=statistics,entries&days=7", "/today"]
      var etags: [String: String] = [:]
      for path in kept {
        let etag = try #require(try await client.send(.get, path, headers: bob).headers[.eTag], "\(path)")
        etags[path] = etag
      }
      let adasETag = try #require(try await client.send(.get, kept[0], headers: ada).headers[.eTag])

      #expect(try await client.send(.put, "/api/v1/habits/\(adas)/entries/2026-03-08", json: ["status": "done"], headers: ada).status == .ok)
      for path in kept {
        var conditional = bob
        conditional[.ifNoneMatch] = etags[path]
        #expect(try await client.send(.get, path, headers: conditional).status == .notModified, "bob's \(path)")
      }
      var adaConditional = ada
      adaConditional[.ifNoneMatch] = adasETag
      let adasAfter = try await client.send(.get, kept[0], headers: adaConditional)
      #expect(adasAfter.status == .ok)
      #expect(adasAfter.headers[.eTag] != adasETag)
    }
  }
}
