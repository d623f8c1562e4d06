import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// A note on a day not done, over the API (issue 15); today is 2026-03-08 in UTC.
@Suite struct NotedDayRouteTests {
  @Test func aNotedDayKeepsItsNoteCountsAsNotDoneAndTravelsThroughExports() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let habit = try await client.send(.post, "/api/v1/habits", json: ["name": "Read", "createdDay": "2026-03-01"], headers: ada)
      let id = try #require(habit.object["id"] as? String)
      let base = "/api/v1/habits/\(id)/entries"
      let plainStats = try await client.send(.get, "/api/v1/habits/\(id)/stats", headers: ada).object
      let noted = try await client.send(.put, "\(base)/2026-03-07", json: ["status": "noted", "note": " rain "], headers: ada)
      #expect(noted.status == .ok, "\(noted.text)")
      #expect(noted.object["status"] as? String == "noted")
      #expect(noted.object["note"] as? String == "rain")
      let stats = try await client.send(.get, "/api/v1/habits/\(id)/stats", headers: ada).object
      for key in ["currentStreak", "longestStreak", "completionRate", "score"] {
        #expect("\(stats[key] ?? "")" == "\(plainStats[key] ?? "")", "\(key)")
      }
      let csv = try await client.send(.get, "/api/v1/export?format=csv", headers: ada).text
      #expect(csv.contains("Read,2026-03-07,noted,rain,"))
      let ics = try await client.send(.get, "/api/v1/export?format=ics", headers: ada).text
      #expect(!ics.contains("rain"), "only completed days are events")

      // Refused without a note, naming it; nothing changes.
      for body in [["status": "noted"], ["status": "noted", "note": "  "]] {
        let refused = try await client.send(.put, "\(base)/2026-03-06", json: body, headers: ada)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.field == "note")
        #expect(refused.detail.contains("must not be empty"), "\(refused.detail)")
      }
      let entries = try await client.send(.get, base, headers: ada).array
      #expect(entries.count == 1)

      // The JSON export, imported into an empty account, holds the noted day as it was.
      let exported = try await client.send(.get, "/api/v1/export", headers: ada)
      _ = try await client.send(.post, "/api/v1/users", json: ["name": "bob", "password": "battery staple"], headers: ada)
      let bob = try await client.signIn("bob", password: "battery staple")
      let imported = try await client.executeRequest(
        uri: "/api/v1/import", method: .post, headers: bob.merging([.contentType: "application/json"]),
        body: exported.body)
      #expect(imported.status == .created)
      let bobsID = try #require(try await client.send(.get, "/api/v1/habits", headers: bob).array.first?["id"] as? String)
      let bobs = try await client.send(.get, "/api/v1/habits/\(bobsID)/entries", headers: bob).array
      #expect(bobs.map { $0["status"] as? String } == ["noted"])
      #expect(bobs.map { $0["note"] as? String } == ["rain"])
    }
  }
}
