import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Statistics, grids and settings over the API; today is Sunday 2026-03-08 in UTC.
@Suite struct StatisticsRouteTests {
  @Test func statisticsHaveExactlyTheSpecsKeysAndAreRanked() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let read = try #require(try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: ada)["id"] as? String)
      let run = try #require(try await client.addHabit("Run", ["createdDay": "2026-03-01", "frequency": ["type": "weekly", "targetPerWeek": 2]], headers: ada)["id"] as? String)
      _ = try await client.send(.post, "/api/v1/habits/\(read)/entries", json: ["from": "2026-03-06", "to": "2026-03-08", "status": "done"], headers: ada)
      _ = try await client.send(.post, "/api/v1/habits/\(run)/entries", json: ["days": ["2026-03-02", "2026-03-04"], "status": "done"], headers: ada)

      let one = try await client.send(.get, "/api/v1/habits/\(read)/stats", headers: ada)
      #expect(one.status == .ok)
      let stats = one.object
      #expect(Set(stats.keys) == [
        "id", "name", "currentStreak", "longestStreak", "streakUnit", "completionRate", "completionsThisWeek",
        "weeklyProgress", "score", "periodProgress", "periodAmount", "periodCompletions",
      ])
      #expect(stats["id"] as? String == read)
      #expect(stats["currentStreak"] as? Int == 3)
      #expect(stats["longestStreak"] as? Int == 3)
      #expect(stats["streakUnit"] as? String == "day")
      #expect(stats["completionRate"] as? Double == 3.0 / 8)
      #expect(stats["completionsThisWeek"] as? Int == 1)
      one.expectSchema("Statistics")

      // Run met its goal in its one full week: rate 1, so it ranks first.
      let all = try await client.send(.get, "/api/v1/stats", headers: ada).array
      #expect(all.map { $0["name"] as? String } == ["Run", "Read"])
      #expect(all[0]["streakUnit"] as? String == "week")
      #expect(all[0]["currentStreak"] as? Int == 1)

      _ = try await client.send(.post, "/api/v1/habits/\(run)/archive", headers: ada)
      #expect(try await client.send(.get, "/api/v1/stats", headers: ada).array.count == 1)
      #expect(try await client.send(.get, "/api/v1/stats?archived=true", headers: ada).array.count == 2)
    }
  }

  /// The "4 of 3" a client shows: progress stops at the goal, the count of done days does not.
  @Test func aHabitDoneMoreTimesThanItsTargetReportsTheUncappedCount() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let stretch = try #require(
        try await client.addHabit(
          "Stretch", ["createdDay": "2026-02-01", "frequency": ["type": "monthly", "timesPerMonth": 3]], headers: ada
        )["id"] as? String)
      let days = ["2026-02-27", "2026-03-02", "2026-03-04", "2026-03-05", "2026-03-08"]
      _ = try await client.send(
        .post, "/api/v1/habits/\(stretch)/entries", json: ["days": days, "status": "done"], headers: ada)
      // February's day is another month's: four in March.

      let one = try await client.send(.get, "/api/v1/habits/\(stretch)/stats", headers: ada)
      #expect(one.status == .ok)
      one.expectSchema("Statistics")
      #expect(one.object["periodCompletions"] as? Int == 4)
      #expect(one.object["periodProgress"] as? Double == 1)
      let all = try await client.send(.get, "/api/v1/stats", headers: ada)
      all.expectSchema(arrayOf: "Statistics")
      #expect(all.array.first?["periodCompletions"] as? Int == 4)
      let listed = try await client.send(.get, "/api/v1/habits?include=statistics", headers: ada)
      #expect((listed.array.first?["statistics"] as? [String: Any])?["periodCompletions"] as? Int == 4)
    }
  }

  @Test func gridsAreWeeksOfLabelledCells() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let a = try #require(try await client.addHabit("A", ["createdDay": "2026-03-01"], headers: ada)["id"] as? String)
      _ = try await client.addHabit("B", ["createdDay": "2026-03-01"], headers: ada)
      _ = try await client.send(.post, "/api/v1/habits/\(a)/entries", json: ["days": ["2026-03-02", "2026-03-08"], "status": "done"], headers: ada)
      _ = try await client.send(.put, "/api/v1/habits/\(a)/entries/2026-03-03", json: ["status": "skipped"], headers: ada)

      let grid = try await client.send(.get, "/api/v1/habits/\(a)/grid?weeks=2", headers: ada)
      #expect(grid.status == .ok)
      let weeks = try #require(grid.object["weeks"] as? [[[String: Any]]])
      #expect(weeks.count == 2)
      #expect(weeks.allSatisfy { $0.count == 7 })
      #expect(weeks[0][0]["day"] as? String == "2026-03-01")
      #expect(weeks[0][1]["state"] as? String == "done")
      #expect(weeks[0][2]["state"] as? String == "skipped")
      #expect(weeks[0][3]["state"] as? String == "empty")
      #expect(weeks[1][0]["label"] as? String == "Sunday 8 March, completed")
      #expect(weeks[1][1]["state"] as? String == "future")
      #expect(try await client.send(.get, "/api/v1/habits/\(a)/grid", headers: ada).object["weeks"].map { ($0 as? [Any])?.count } == 53)

      let activity = try await client.send(.get, "/api/v1/grid?weeks=2", headers: ada)
      let cells = try #require(activity.object["weeks"] as? [[[String: Any]]])
      #expect(cells[0][1]["level"] as? Int == 2)
      #expect(cells[0][1]["completed"] as? Int == 1)
      #expect(cells[0][1]["tracked"] as? Int == 2)
      #expect(cells[0][1]["label"] as? String == "Monday 2 March, 1 of 2 habits done")
      #expect(cells[1][1]["isFuture"] as? Bool == true)

      for uri in ["/api/v1/grid?weeks=0", "/api/v1/grid?weeks=531", "/api/v1/habits/\(a)/grid?weeks=many"] {
        let bad = try await client.send(.get, uri, headers: ada)
        #expect(bad.status == .badRequest, "\(uri)")
        #expect(bad.field == "weeks")
      }
    }
  }

  @Test func settingsAreShownAndChangedFieldByField() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let shown = try await client.send(.get, "/api/v1/settings", headers: ada)
      #expect(shown.status == .ok)
      #expect(shown.object["timeZone"] as? String == "UTC")
      #expect(Set(shown.object.keys) == ["timeZone", "daySwitchHour", "firstWeekday", "locale", "showDatePickerGrid", "showGridDates"])

      let changed = try await client.send(
        .patch, "/api/v1/settings",
        json: ["timeZone": "Europe/Berlin", "firstWeekday": "monday", "daySwitchHour": 3, "showGridDates": true], headers: ada)
      #expect(changed.status == .ok)
      #expect(changed.object["timeZone"] as? String == "Europe/Berlin")
      #expect(changed.object["firstWeekday"] as? String == "monday")
      #expect(changed.object["daySwitchHour"] as? Int == 3)
      #expect(changed.object["showGridDates"] as? Bool == true)
      #expect(changed.object["locale"] as? String == "en_US")

      // A language, then back to "as the browser asks" with null.
      let german = try await client.send(.patch, "/api/v1/settings", json: ["language": "de"], headers: ada)
      #expect(german.object["language"] as? String == "de")
      #expect(try await client.send(.get, "/api/v1/settings", headers: ada).object["language"] as? String == "de")
      let browser = try await client.send(.patch, "/api/v1/settings", json: ["language": NSNull()], headers: ada)
      #expect(browser.status == .ok)
      #expect(browser.object["language"] == nil)
      let after = try await client.send(.get, "/api/v1/settings", headers: ada).text
      #expect(after == changed.text)

      let cases: [([String: Any], String, String)] = [
        (["timeZone": "Mars/Olympus"], "timeZone", "must be an IANA time zone like Europe/Berlin, not 'Mars/Olympus'"),
        (["daySwitchHour": 7], "daySwitchHour", "must be a whole hour from 0 to 6, not 7"),
        (["firstWeekday": "someday"], "firstWeekday", "'someday' is not a weekday"),
        (["locale": "xx_YY"], "locale", "must be a locale like en_US"),
        (["timeZone": NSNull()], "timeZone", "The field 'timeZone' cannot be null"),
        (["timezone": "UTC"], "timezone", "The field 'timezone' is not known here"),
        (["locale": "fr_FR", "daySwitchHour": -1], "daySwitchHour", "not -1"),
        (["language": "klingon"], "language", "must be one of en, zh-Hans, es, ar, pt-BR, id, fr, ja, ru, de, ko, tr, it, pl, nl, uk; not 'klingon'"),
        // Codes are as written: the setting is one of sixteen exact values.
        (["language": "DE"], "language", "not 'DE'"),
        (["language": 7], "language", "language"),
      ]
      for (body, field, words) in cases {
        let response = try await client.send(.patch, "/api/v1/settings", json: body, headers: ada)
        #expect(response.status == .unprocessableContent, "\(body)")
        #expect(response.field == field, "\(body)")
        #expect(response.detail.contains(words), "\(response.detail)")
      }
      #expect(try await client.send(.get, "/api/v1/settings", headers: ada).text == after)
    }
  }
}
