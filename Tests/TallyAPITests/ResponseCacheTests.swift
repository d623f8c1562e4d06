import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// The habit list is kept between requests; these prove a kept answer is never a stale one.
@Suite struct ResponseCacheTests {
  let listing = "/api/v1/habits?include=statistics,entries&days=7"

  @Test func aWriteIsSeenByTheNextListAndChangesTheETag() async throws {
    try await TestServer().test { client in
      let session = try await client.setUpOwner()
      let made = try await client.send(
        .post, "/api/v1/habits", json: ["name": "Read", "createdDay": "2026-03-01"], headers: session)
      let id = try #require(made.object["id"] as? String)
      let first = try await client.send(.get, listing, headers: session)
      let etag = try #require(first.headers[.eTag])
      #expect((first.array.first?["entries"] as? [Any])?.isEmpty == true)

      var conditional = session
      conditional[.ifNoneMatch] = etag
      let unchanged = try await client.send(.get, listing, headers: conditional)
      #expect(unchanged.status == .notModified)

      #expect(try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-08", json: ["status": "done"], headers: session).status == .ok)
      let after = try await client.send(.get, listing, headers: conditional)
      #expect(after.status == .ok)
      #expect(after.headers[.eTag] != etag)
      let entries = try #require(after.array.first?["entries"] as? [[String: Any]])
      #expect(entries.map { $0["day"] as? String } == ["2026-03-08"])
      let statistics = try #require(after.array.first?["statistics"] as? [String: Any])
      #expect(statistics["currentStreak"] as? Int == 1)
    }
  }

  @Test func oneUsersKeptListIsNeverAnothers() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      _ = try await client.send(.post, "/api/v1/habits", json: ["name": "Ada's"], headers: ada)
      _ = try await client.send(.post, "/api/v1/users", json: ["name": "bob", "password": "battery staple"], headers: ada)
      let bob = try await client.signIn("bob", password: "battery staple")
      #expect(try await client.send(.get, listing, headers: ada).array.count == 1)
      #expect(try await client.send(.get, listing, headers: bob).array.isEmpty)
    }
  }

  @Test func aNewDayIsANewAnswer() async throws {
    let clock = MovableClock(testNow)
    try await TestServer(clock: { clock.now }).test { client in
      let session = try await client.setUpOwner()
      _ = try await client.send(.post, "/api/v1/habits", json: ["name": "Read", "createdDay": "2026-03-01"], headers: session)
      let today = try await client.send(.get, listing, headers: session)
      clock.now = testNow.addingTimeInterval(86_400)
      let tomorrow = try await client.send(.get, listing, headers: session)
      #expect(today.headers[.eTag] != tomorrow.headers[.eTag])
    }
  }
}

/// A clock a test moves by hand.
final class MovableClock: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Date
  init(_ start: Date) { value = start }
  var now: Date {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}
