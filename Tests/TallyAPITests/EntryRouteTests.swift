import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Days of a habit over the API, with `tally mark`'s rules; today is 2026-03-08 in UTC.
@Suite struct EntryRouteTests {
  @Test func aDayIsSetNotToggled() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      let uri = "/api/v1/habits/\(id)/entries/2026-03-08"
      for _ in 0..<2 {
        let done = try await client.send(.put, uri, json: ["status": "done", "note": " ch. 1 "], headers: ada)
        #expect(done.status == .ok)
        #expect(done.object["day"] as? String == "2026-03-08")
        #expect(done.object["status"] as? String == "done")
        #expect(done.object["note"] as? String == "ch. 1")
      }
      // Without a note the note stays; a skipped day keeps it too.
      let skipped = try await client.send(.put, uri, json: ["status": "skipped"], headers: ada)
      #expect(skipped.object["status"] as? String == "skipped")
      #expect(skipped.object["note"] as? String == "ch. 1")
      let cleared = try await client.send(.put, uri, json: ["status": "none"], headers: ada)
      #expect(cleared.status == .noContent)
      #expect(try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: ada).array.isEmpty)

      // Before the created day is back-filling, and allowed.
      #expect(try await client.send(.put, "/api/v1/habits/\(id)/entries/2025-12-31", json: ["status": "done"], headers: ada).status == .ok)
      #expect(try await client.send(.delete, "/api/v1/habits/\(id)/entries/2025-12-31", headers: ada).status == .noContent)
      #expect(try await client.send(.delete, "/api/v1/habits/\(id)/entries/2025-12-31", headers: ada).status == .noContent)
      #expect(try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: ada).array.isEmpty)
    }
  }

  @Test func refusedDaysChangeNothing() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      #expect(try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-07", json: ["status": "done", "note": "kept"], headers: ada).status == .ok)
      let base = "/api/v1/habits/\(id)/entries"
      let cases: [(HTTPRequest.Method, String, Any?, HTTPResponse.Status, String?, String)] = [
        (.put, "\(base)/2026-03-09", ["status": "done"], .unprocessableContent, "day",
          "The day 2026-03-09 is in the future (today is 2026-03-08); only days up to today can be marked."),
        (.delete, "\(base)/2026-03-09", nil, .unprocessableContent, "day", "in the future"),
        (.put, "\(base)/2026-3-7", ["status": "done"], .badRequest, "day", "The day '2026-3-7' is not a day like 2026-03-08."),
        (.put, "\(base)/0000-03-01", ["status": "done"], .badRequest, "day", "The day 0000-03-01 is before 0001-01-01, the first day Tally keeps."),
        // A range from every day to one before them all once stopped the server.
        (.get, "\(base)?to=0000-02-05", nil, .badRequest, "to", "the first day Tally keeps"),
        (.get, "\(base)?from=0000-02-05&to=2026-03-01", nil, .badRequest, "from", "the first day Tally keeps"),
        (.put, "\(base)/2026-03-07", ["status": "finished"], .unprocessableContent, "status", "'finished' is not a status"),
        (.put, "\(base)/2026-03-07", ["status": "none", "note": "x"], .unprocessableContent, "note", "send no note"),
        (.put, "\(base)/2026-03-07", ["status": "done", "when": "now"], .unprocessableContent, "when", "The field 'when' is not known here"),
        (.put, "\(base)/2026-03-07", ["status": "done", "note": String(repeating: "n", count: 2001)], .unprocessableContent, "note", "at most 2000 characters"),
        (.post, base, ["days": ["2026-03-06", "2026-03-09"], "status": "skipped"], .unprocessableContent, "day", "in the future"),
        (.post, base, ["days": ["0000-03-01", "2026-03-06"], "status": "done"], .unprocessableContent, "day", "The day 0000-03-01 is before 0001-01-01"),
        (.post, base, ["from": "2026-03-01", "to": "2026-03-09", "status": "none"], .unprocessableContent, "day", "in the future"),
        (.post, base, ["from": "2026-03-07", "to": "2026-03-01", "status": "done"], .unprocessableContent, "to", "The range 2026-03-07..2026-03-01 must not end before it starts."),
        (.post, base, ["from": "2026-03-01", "status": "done"], .unprocessableContent, "to", "send to with from"),
        (.post, base, ["days": ["2026-03-01"], "from": "2026-03-01", "to": "2026-03-02", "status": "done"], .unprocessableContent, "days", "not both"),
        (.post, base, ["days": [String](), "status": "done"], .unprocessableContent, "days", "at least one day"),
        (.post, base, ["status": "done"], .unprocessableContent, "days", "send days, or from and to"),
        (.post, base, ["days": ["yesterday"], "status": "done"], .unprocessableContent, "days[0]", "must be a date written YYYY-MM-DD"),
        (.put, "/api/v1/habits/\(UUID().uuidString.lowercased())/entries/2026-03-07", ["status": "done"], .notFound, nil, "There is no habit with id"),
      ]
      for (method, uri, body, status, field, words) in cases {
        let response = try await client.send(method, uri, json: body, headers: ada)
        #expect(response.status == status, "\(method) \(uri) \(String(describing: body)): \(response.text)")
        #expect(response.field == field, "\(method) \(uri) \(String(describing: body))")
        #expect(response.detail.contains(words), "\(response.detail)")
      }
      let entries = try await client.send(.get, base, headers: ada).array
      #expect(entries.count == 1)
      #expect(entries.first?["day"] as? String == "2026-03-07")
      #expect(entries.first?["status"] as? String == "done")
      #expect(entries.first?["note"] as? String == "kept")
    }
  }

  @Test func severalDaysAreSetAtOnceAndReadBackByRange() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      let base = "/api/v1/habits/\(id)/entries"
      let range = try await client.send(.post, base, json: ["from": "2026-03-01", "to": "2026-03-05", "status": "done"], headers: ada)
      #expect(range.status == .ok)
      #expect(range.array.map { $0["day"] as? String } == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"])
      let listed = try await client.send(
        .post, base, json: ["days": ["2026-03-03", "2026-03-02", "2026-03-03"], "status": "skipped", "note": "ill"], headers: ada)
      #expect(listed.array.map { $0["day"] as? String } == ["2026-03-02", "2026-03-03"])
      #expect(listed.array.allSatisfy { $0["status"] as? String == "skipped" && $0["note"] as? String == "ill" })
      let none = try await client.send(.post, base, json: ["days": ["2026-03-01"], "status": "none"], headers: ada)
      #expect(none.status == .ok)
      #expect(none.array.isEmpty)

      let window = try await client.send(.get, "\(base)?from=2026-03-02&to=2026-03-04", headers: ada)
      #expect(window.array.map { $0["day"] as? String } == ["2026-03-02", "2026-03-03", "2026-03-04"])
      #expect(try await client.send(.get, "\(base)?from=2026-03-04", headers: ada).array.count == 2)
      #expect(try await client.send(.get, "\(base)?to=2026-03-02", headers: ada).array.count == 1)
      let backwards = try await client.send(.get, "\(base)?from=2026-03-04&to=2026-03-02", headers: ada)
      #expect(backwards.status == .badRequest)
      #expect(backwards.field == "to")
      let garbled = try await client.send(.get, "\(base)?from=March", headers: ada)
      #expect(garbled.status == .badRequest)
      #expect(garbled.field == "from")
    }
  }

  /// Today follows the user's zone and day-switch hour, not the server's: at 01:30 in
  /// Auckland with a switch hour of 2 it is still the day before there.
  @Test func todayIsTheUsersToday() async throws {
    // 2026-03-08 12:30 UTC is 2026-03-09 01:30 in Auckland (NZDT, UTC+13).
    let now = Date(timeIntervalSince1970: 1_772_973_000)
    try await TestServer(clock: { now }).test { client in
      let ada = try await client.setUpOwner()
      let set = try await client.send(.patch, "/api/v1/settings", json: ["timeZone": "Pacific/Auckland"], headers: ada)
      #expect(set.status == .ok)
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      #expect(try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-09", json: ["status": "done"], headers: ada).status == .ok)
      _ = try await client.send(.patch, "/api/v1/settings", json: ["daySwitchHour": 2], headers: ada)
      let early = try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-09", json: ["status": "skipped"], headers: ada)
      #expect(early.status == .unprocessableContent)
      #expect(early.detail.contains("today is 2026-03-08"))
    }
  }
}
