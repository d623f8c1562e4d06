import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyHTTP
import TallyPostgres
import TallyPostgresTesting
import TallyServer
import TallyServerTesting
import Testing

/// Two server instances (two routers, each with its own pool and response cache) on one
/// PostgreSQL database act as one server.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresInstanceRouteTests {
  let listing = "/api/v1/habits?include=statistics,entries&days=7"

  static func twoInstances() async throws -> (TestServer, TestServer) {
    let location = try PostgresTesting.freshLocation()
    let a = PostgresStore(try await PostgresTesting.open(location, connections: 3), clock: { testNow })
    let b = PostgresStore(try await PostgresTesting.open(location, connections: 3), clock: { testNow })
    return (TestServer(store: a), TestServer(store: b))
  }

  @Test func aWriteThroughOneInstanceIsReadThroughTheOtherAndItsKeptListIsNotServed() async throws {
    let (a, b) = try await Self.twoInstances()
    try await a.test { clientA in
      try await b.test { clientB in
        // A session made by A signs in at B: sessions live in the database.
        let session = try await clientA.setUpOwner()
        let made = try await clientB.send(
          .post, "/api/v1/habits", json: ["name": "Read", "createdDay": "2026-03-01"], headers: session)
        #expect(made.status == .created)
        let id = try #require(made.object["id"] as? String)

        let first = try await clientA.send(.get, listing, headers: session)
        let etag = try #require(first.headers[.eTag])
        #expect(first.array.map { $0["name"] as? String } == ["Read"])
        // (Whether A answers 304 before the write depends on other tests: the revision is the
        // whole cluster's, and they write beside this one.)
        var conditional = session
        conditional[.ifNoneMatch] = etag

        // B marks a day; A's kept list is stale now and must not be served, nor a 304.
        let marked = try await clientB.send(
          .put, "/api/v1/habits/\(id)/entries/2026-03-08", json: ["status": "done"], headers: session)
        #expect(marked.status == .ok)
        let after = try await clientA.send(.get, listing, headers: conditional)
        #expect(after.status == .ok)
        #expect(after.headers[.eTag] != etag)
        let entries = try #require(after.array.first?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["day"] as? String } == ["2026-03-08"])
      }
    }
  }

  /// Wrong passwords alternated between the instances meet one limit: the sixth try, at
  /// either, waits, however right its password.
  @Test func signInFailuresThroughBothInstancesAreCountedTogether() async throws {
    let (a, b) = try await Self.twoInstances()
    try await a.test { clientA in
      try await b.test { clientB in
        _ = try await clientA.setUpOwner()
        for round in 0..<5 {
          let wrong = try await (round % 2 == 0 ? clientA : clientB).send(
            .post, "/api/v1/session", json: ["name": "ada", "password": "wrong horse"])
          #expect(wrong.status == .unauthorized)
        }
        for client in [clientA, clientB] {
          let locked = try await client.send(.post, "/api/v1/session", json: ["name": "ada", "password": "correct horse"])
          #expect(locked.status == .tooManyRequests)
          #expect(locked.headers[.retryAfter] == "900")
        }
      }
    }
  }

  @Test func aDatabaseThatIsGoneGives503ProblemsAndHealthSaysSo() async throws {
    let database = try await PostgresTesting.database()
    let server = TestServer(store: PostgresStore(database, clock: { testNow }))
    try await server.test { client in
      let session = try await client.setUpOwner()
      #expect(try await client.send(.get, "/healthz").status == .ok)
      database.close()
      let health = try await client.send(.get, "/healthz")
      #expect(health.status == .serviceUnavailable)
      #expect(health.headers[.contentType] == "application/problem+json")
      #expect(String(buffer: health.body).contains("database"))
      let list = try await client.send(.get, "/api/v1/habits", headers: session)
      #expect(list.status == .serviceUnavailable, "\(String(buffer: list.body))")
      #expect(list.headers[.contentType] == "application/problem+json")
    }
  }
}
