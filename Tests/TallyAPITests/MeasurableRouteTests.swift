import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Measurable habits and the new schedules over the API (issue 15); today is 2026-03-08 in UTC.
@Suite struct MeasurableRouteTests {
  nonisolated(unsafe) static let run: [String: Any] = [
    "measure": ["unit": "km", "target": 5.5], "frequency": ["type": "timesInDays", "times": 1, "days": 3],
    "description": "Flat route",
  ]

  @Test func aMeasurableHabitTakesAmounts() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let habit = try await client.addHabit("Run", Self.run, headers: ada)
      let id = try #require(habit["id"] as? String)
      let shown = try await client.send(.get, "/api/v1/habits/\(id)", headers: ada)
      #expect((shown.object["measure"] as? [String: Any])?["direction"] as? String == "atLeast")
      #expect((shown.object["measure"] as? [String: Any])?["target"] as? Double == 5.5)
      #expect(shown.object["description"] as? String == "Flat route")

      let day = try await client.send(
        .put, "/api/v1/habits/\(id)/entries/2026-03-08", json: ["status": "done", "amount": 2.75], headers: ada)
      #expect(day.status == .ok, "\(day.text)")
      day.expectSchema("Entry")
      #expect(day.object["amount"] as? Double == 2.75)
      let many = try await client.send(
        .post, "/api/v1/habits/\(id)/entries", json: ["days": ["2026-03-06", "2026-03-07"], "status": "done", "amount": 3],
        headers: ada)
      #expect(many.array.compactMap { $0["amount"] as? Double } == [3, 3])

      let stats = try await client.send(.get, "/api/v1/habits/\(id)/stats", headers: ada)
      #expect(stats.status == .ok)
      stats.expectSchema("Statistics")
      #expect(stats.object["streakUnit"] as? String == "period")
      // Blocks of three days from 6 March: 6–8 March sums 3 + 3 + 2.75.
      #expect(stats.object["periodAmount"] as? Double == 8.75)
      let yesNo = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      let plain = try await client.send(.get, "/api/v1/habits/\(yesNo)", headers: ada)
      #expect(plain.object["measure"] is NSNull)
    }
  }

  @Test func badInputIsRefusedNamingTheFieldAndNothingIsStored() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let run = try #require(try await client.addHabit("Run", Self.run, headers: ada)["id"] as? String)
      let read = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      let cases: [(HTTPRequest.Method, String, [String: Any], String, String)] = [
        (.put, "/api/v1/habits/\(run)/entries/2026-03-08", ["status": "done", "amount": -1], "amount", "0 or more"),
        (.put, "/api/v1/habits/\(run)/entries/2026-03-08", ["status": "done"], "amount", "required"),
        (.put, "/api/v1/habits/\(run)/entries/2026-03-08", ["status": "skipped", "amount": 2], "amount", "status done"),
        (.put, "/api/v1/habits/\(read)/entries/2026-03-08", ["status": "done", "amount": 2], "amount", "only for measurable"),
        (.post, "/api/v1/habits", ["name": "Zero", "measure": ["unit": "km", "target": 0]], "measure.target", "more than 0"),
        (.post, "/api/v1/habits", ["name": "Odd", "frequency": ["type": "timesInDays", "times": 0, "days": 3]],
          "frequency.times", "must be from 1 to 2"),
        (.post, "/api/v1/habits", ["name": "Thrice", "measure": ["target": 1], "frequency": ["type": "weekly", "targetPerWeek": 3]],
          "frequency", "once per period"),
        (.patch, "/api/v1/habits/\(read)", ["frequency": ["type": "monthly", "timesPerMonth": 30]], "frequency.timesPerMonth", "1 to 28"),
      ]
      for (method, uri, body, field, words) in cases {
        let response = try await client.send(method, uri, json: body, headers: ada)
        #expect(response.status == .unprocessableContent, "\(uri) \(body): \(response.text)")
        #expect(response.field == field, "\(uri) \(body): \(response.text)")
        #expect(response.detail.contains(words), "\(response.detail)")
      }
      #expect(try await client.send(.get, "/api/v1/habits/\(run)/entries", headers: ada).array.isEmpty)
      #expect(try await client.send(.get, "/api/v1/habits/\(read)/entries", headers: ada).array.isEmpty)
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.count == 2)
      let shown = try await client.send(.get, "/api/v1/habits/\(read)", headers: ada)
      #expect((shown.object["frequency"] as? [String: Any])?["type"] as? String == "daily")
    }
  }
}
