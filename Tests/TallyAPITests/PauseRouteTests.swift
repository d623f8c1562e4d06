import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Weekday schedules and pauses over the API (issue 55); today is 2026-03-08, a Sunday, in UTC.
@Suite struct PauseRouteTests {
  nonisolated(unsafe) static let gym: [String: Any] = [
    "frequency": ["type": "weekdays", "weekdays": ["monday", "wednesday", "friday"]],
    "createdDay": "2026-03-01",
  ]

  @Test func aWeekdayHabitAndAVacationShapeItsStatistics() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let habit = try await client.addHabit("Gym", Self.gym, headers: ada)
      let id = try #require(habit["id"] as? String)
      let shown = try await client.send(.get, "/api/v1/habits/\(id)", headers: ada)
      #expect((shown.object["frequency"] as? [String: Any])?["weekdays"] as? [String] == ["monday", "wednesday", "friday"])
      // Monday 2 and Wednesday 4 March done; Friday 6 March falls in the vacation.
      for day in ["2026-03-02", "2026-03-04"] {
        let marked = try await client.send(.put, "/api/v1/habits/\(id)/entries/\(day)", json: ["status": "done"], headers: ada)
        #expect(marked.status == .ok, "\(marked.text)")
      }
      let vacation = try await client.send(
        .post, "/api/v1/pauses", json: ["from": "2026-03-05", "until": "2026-03-07"], headers: ada)
      #expect(vacation.status == .created, "\(vacation.text)")
      vacation.expectSchema("Pause")
      #expect(vacation.object["habitId"] is NSNull)
      let stats = try await client.send(.get, "/api/v1/habits/\(id)/stats", headers: ada)
      stats.expectSchema("Statistics")
      #expect(stats.object["currentStreak"] as? Int == 2)
      #expect(stats.object["completionRate"] as? Double == 1)
      let grid = try await client.send(.get, "/api/v1/habits/\(id)/grid?weeks=2", headers: ada)
      let cells = ((grid.object["weeks"] as? [[[String: Any]]]) ?? []).joined()
      let states = Dictionary(uniqueKeysWithValues: cells.compactMap { cell in
        (cell["day"] as? String).map { ($0, cell["state"] as? String ?? "") }
      })
      #expect(states["2026-03-06"] == "paused")
      #expect(states["2026-03-03"] == "unscheduled")
      #expect(states["2026-03-02"] == "done")
      let listed = try await client.send(.get, "/api/v1/pauses", headers: ada)
      listed.expectSchema(arrayOf: "Pause")
      #expect(listed.array.count == 1)
    }
  }

  /// Reminders (and so the calendar feed, the webhook and Web Push) skip paused days and the
  /// days a weekday schedule leaves out.
  @Test func remindersSkipNeutralDays() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let reminder: [String: Any] = ["type": "single", "time": "23:30"]
      _ = try await client.addHabit("Read", ["reminder": reminder], headers: ada)
      _ = try await client.addHabit(
        "Gym", ["reminder": reminder, "frequency": ["type": "weekdays", "weekdays": ["tuesday", "thursday"]]], headers: ada)
      _ = try await client.send(.post, "/api/v1/pauses", json: ["from": "2026-03-09", "until": "2026-03-10"], headers: ada)
      let upcoming = try await client.send(.get, "/api/v1/reminders?days=6", headers: ada)
      #expect(upcoming.status == .ok, "\(upcoming.text)")
      let fired = upcoming.array.map { "\($0["habitName"] as? String ?? "") \($0["day"] as? String ?? "")" }
      #expect(
        fired == ["Read 2026-03-08", "Read 2026-03-11", "Read 2026-03-12", "Gym 2026-03-12", "Read 2026-03-13"],
        "\(fired)")
    }
  }

  @Test func resumingEndsThePauseTheDayBeforeAndDeletingRemovesIt() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      let paused = try await client.send(.post, "/api/v1/pauses", json: ["habitId": id, "from": "2026-03-01"], headers: ada)
      #expect(paused.status == .created, "\(paused.text)")
      let pause = try #require(paused.object["id"] as? String)
      let resumed = try await client.send(.post, "/api/v1/pauses/resume", json: ["habitId": id], headers: ada)
      #expect(resumed.status == .ok, "\(resumed.text)")
      #expect((resumed.object["ended"] as? [[String: Any]])?.first?["until"] as? String == "2026-03-07")
      let replaced = try await client.send(
        .put, "/api/v1/pauses/\(pause)", json: ["habitId": id, "from": "2026-03-01", "until": "2026-03-03"], headers: ada)
      #expect(replaced.object["until"] as? String == "2026-03-03")
      #expect(try await client.send(.delete, "/api/v1/pauses/\(pause)", headers: ada).status == .noContent)
      #expect(try await client.send(.get, "/api/v1/pauses", headers: ada).array.isEmpty)
      #expect(try await client.send(.delete, "/api/v1/pauses/\(pause)", headers: ada).status == .notFound)
    }
  }

  @Test func badSchedulesAndPausesAreRefusedNamingTheFieldAndNothingIsStored() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      _ = try await client.send(.post, "/api/v1/pauses", json: ["habitId": id, "from": "2026-03-01", "until": "2026-03-05"], headers: ada)
      let week = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
      let cases: [(HTTPRequest.Method, String, [String: Any], String)] = [
        (.post, "/api/v1/habits", ["name": "None", "frequency": ["type": "weekdays", "weekdays": [String]()]], "frequency.weekdays"),
        (.post, "/api/v1/habits", ["name": "All", "frequency": ["type": "weekdays", "weekdays": week]], "frequency.weekdays"),
        (.post, "/api/v1/habits", ["name": "Twice", "frequency": ["type": "weekdays", "weekdays": ["monday", "monday"]]], "frequency.weekdays"),
        (.post, "/api/v1/habits", ["name": "Odd", "frequency": ["type": "weekdays", "weekdays": ["funday"]]], "frequency.weekdays[0]"),
        (.post, "/api/v1/pauses", ["from": "2026-03-09", "until": "2026-03-01"], "until"),
        (.post, "/api/v1/pauses", ["habitId": id, "from": "2026-03-04"], "from"),
        (.post, "/api/v1/pauses", ["from": "1969-12-31"], "from"),
      ]
      for (method, uri, body, field) in cases {
        let response = try await client.send(method, uri, json: body, headers: ada)
        #expect(response.status == .unprocessableContent, "\(uri) \(body): \(response.text)")
        #expect(response.field == field, "\(uri) \(body): \(response.text)")
      }
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.count == 1)
      #expect(try await client.send(.get, "/api/v1/pauses", headers: ada).array.count == 1)
    }
  }
}
