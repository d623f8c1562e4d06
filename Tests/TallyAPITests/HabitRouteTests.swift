import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Habits over the API; "today" is 2026-03-08 (a Sunday) in UTC throughout.
@Suite struct HabitRouteTests {
  @Test func aHabitIsAddedReadChangedAndDeleted() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let response = try await client.send(
        .post, "/api/v1/habits",
        json: ["name": " Read ", "icon": "📚", "color": "#abc", "frequency": ["type": "weekly", "targetPerWeek": 3]],
        headers: ada)
      #expect(response.status == .created)
      let habit = response.object
      let id = try #require(habit["id"] as? String)
      #expect(id == id.lowercased())
      #expect(response.headers[.location] == "/api/v1/habits/\(id)")
      #expect(Set(habit.keys) == ["id", "name", "icon", "color", "group", "createdDay", "frequency", "reminder", "archived", "sortOrder", "measure", "description"])
      #expect(habit["name"] as? String == "Read")
      #expect(habit["color"] as? String == "#AABBCC")
      #expect(habit["group"] is NSNull)
      #expect(habit["createdDay"] as? String == "2026-03-08")
      #expect(habit["sortOrder"] as? Int == 0)
      #expect((habit["frequency"] as? [String: Any])?["targetPerWeek"] as? Int == 3)

      let second = try await client.addHabit("Run", headers: ada)
      #expect(second["sortOrder"] as? Int == 1)
      #expect((second["frequency"] as? [String: Any])?["type"] as? String == "daily")

      let read = try await client.send(.get, "/api/v1/habits/\(id)", headers: ada)
      #expect(read.status == .ok)
      #expect(read.object["name"] as? String == "Read")

      let changed = try await client.send(
        .patch, "/api/v1/habits/\(id)",
        json: ["name": "Read books", "icon": NSNull(), "group": "Mind", "createdDay": "2026-03-01",
          "reminder": ["type": "single", "time": "08:30"]],
        headers: ada)
      #expect(changed.status == .ok, "\(changed.text)")
      #expect(changed.object["name"] as? String == "Read books")
      #expect(changed.object["icon"] is NSNull)
      #expect(changed.object["group"] as? String == "Mind")
      #expect(changed.object["color"] as? String == "#AABBCC")
      #expect(changed.object["createdDay"] as? String == "2026-03-01")
      #expect((changed.object["reminder"] as? [String: Any])?["time"] as? String == "08:30")

      let list = try await client.send(.get, "/api/v1/habits", headers: ada)
      #expect(list.array.map { $0["name"] as? String } == ["Read books", "Run"])

      #expect(try await client.send(.delete, "/api/v1/habits/\(id)", headers: ada).status == .noContent)
      let gone = try await client.send(.get, "/api/v1/habits/\(id)", headers: ada)
      #expect(gone.status == .notFound)
      #expect(gone.detail == "There is no habit with id \(id).")
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.count == 1)
    }
  }

  @Test func badHabitsAreRefusedByFieldAndNothingIsAdded() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      _ = try await client.addHabit("Read", headers: ada)
      let cases: [([String: Any], HTTPResponse.Status, String, String)] = [
        (["name": "Walk", "color": "blue"], .unprocessableContent, "color", "must be a hex colour like #RGB, #RRGGBB or #AARRGGBB, not 'blue'"),
        (["name": "Walk", "frequency": ["type": "weekly", "targetPerWeek": 7]], .unprocessableContent, "frequency.targetPerWeek", "must be from 1 to 6"),
        (["name": "Walk", "colour": "#fff"], .unprocessableContent, "colour", "The field 'colour' is not known here"),
        (["name": "   "], .unprocessableContent, "name", "must be 1 to 100 characters"),
        (["name": "Walk", "icon": "not an icon!"], .unprocessableContent, "icon", "must be one emoji or a symbol name"),
        (["name": "Walk", "createdDay": "2026-03-09"], .unprocessableContent, "createdDay", "The created day 2026-03-09 is after today (2026-03-08)"),
        (["name": "Walk", "createdDay": "0000-03-09"], .unprocessableContent, "createdDay", "The created day 0000-03-09 is before 0001-01-01"),
        (["name": "Walk", "createdDay": "2026-02-30"], .unprocessableContent, "createdDay", "must be a date written YYYY-MM-DD"),
        (["name": "Read"], .conflict, "name", "A habit named 'Read' already exists"),
      ]
      for (body, status, field, words) in cases {
        let response = try await client.send(.post, "/api/v1/habits", json: body, headers: ada)
        #expect(response.status == status, "\(body)")
        #expect(response.field == field, "\(body)")
        #expect(response.detail.contains(words), "\(response.detail)")
        #expect(response.headers[.contentType] == "application/problem+json")
      }
      let list = try await client.send(.get, "/api/v1/habits?archived=true", headers: ada)
      #expect(list.array.map { $0["name"] as? String } == ["Read"])
    }
  }

  @Test func aRefusedChangeChangesNothing() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let read = try await client.addHabit("Read", ["color": "#112233"], headers: ada)
      _ = try await client.addHabit("Run", headers: ada)
      let id = try #require(read["id"] as? String)
      let cases: [([String: Any], HTTPResponse.Status, String)] = [
        (["name": "Run"], .conflict, "name"),
        (["name": "Walk", "color": "#12"], .unprocessableContent, "color"),
        (["frequency": ["type": "weekly", "targetPerWeek": 0]], .unprocessableContent, "frequency.targetPerWeek"),
        (["name": NSNull()], .unprocessableContent, "name"),
        (["createdDay": "2026-04-01"], .unprocessableContent, "createdDay"),
        (["archived": true], .unprocessableContent, "archived"),
      ]
      for (body, status, field) in cases {
        let response = try await client.send(.patch, "/api/v1/habits/\(id)", json: body, headers: ada)
        #expect(response.status == status, "\(body): \(response.text)")
        #expect(response.field == field, "\(body)")
      }
      let after = try await client.send(.get, "/api/v1/habits/\(id)", headers: ada).object
      #expect(after["name"] as? String == "Read")
      #expect(after["color"] as? String == "#112233")
      #expect(after["archived"] as? Bool == false)
      #expect(try await client.send(.patch, "/api/v1/habits/not-an-id", json: ["name": "X"], headers: ada).status == .notFound)
    }
  }

  @Test func archivedHabitsLeaveTheListUntilAskedForAndComeBack() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: ada)["id"] as? String)
      _ = try await client.addHabit("Run", headers: ada)
      let archived = try await client.send(.post, "/api/v1/habits/\(id)/archive", headers: ada)
      #expect(archived.object["archived"] as? Bool == true)
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.map { $0["name"] as? String } == ["Run"])
      let all = try await client.send(.get, "/api/v1/habits?archived=true", headers: ada)
      #expect(all.array.map { $0["name"] as? String } == ["Read", "Run"])
      let bad = try await client.send(.get, "/api/v1/habits?archived=yes", headers: ada)
      #expect(bad.status == .badRequest)
      #expect(bad.field == "archived")
      let back = try await client.send(.post, "/api/v1/habits/\(id)/unarchive", headers: ada)
      #expect(back.object["archived"] as? Bool == false)
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.count == 2)
    }
  }

  @Test func habitsAreReorderedAndABadOrderChangesNothing() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      var ids: [String] = []
      for name in ["A", "B", "C"] { ids.append(try #require(try await client.addHabit(name, headers: ada)["id"] as? String)) }
      let moved = try await client.send(.put, "/api/v1/habits/order", json: ["ids": [ids[2], ids[0]]], headers: ada)
      #expect(moved.status == .ok)
      #expect(moved.array.map { $0["name"] as? String } == ["C", "A", "B"])
      #expect(moved.array.map { $0["sortOrder"] as? Int } == [0, 1, 2])

      let twice = try await client.send(.put, "/api/v1/habits/order", json: ["ids": [ids[1], ids[1]]], headers: ada)
      #expect(twice.status == .unprocessableContent)
      #expect(twice.field == "ids")
      #expect(twice.detail.contains("appears twice"))
      let unknown = try await client.send(.put, "/api/v1/habits/order", json: ["ids": [UUID().uuidString.lowercased()]], headers: ada)
      #expect(unknown.status == .notFound)
      let garbled = try await client.send(.put, "/api/v1/habits/order", json: ["ids": ["nope"]], headers: ada)
      #expect(garbled.status == .unprocessableContent)
      #expect(garbled.field == "ids[0]")
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.map { $0["name"] as? String } == ["C", "A", "B"])
    }
  }

  @Test func theListingCarriesStatisticsAndRecentEntriesWhenAsked() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: ada)["id"] as? String)
      _ = try await client.addHabit("Run", headers: ada)
      let marked = try await client.send(
        .post, "/api/v1/habits/\(id)/entries", json: ["from": "2026-03-04", "to": "2026-03-08", "status": "done"], headers: ada)
      #expect(marked.status == .ok)

      let plain = try await client.send(.get, "/api/v1/habits", headers: ada).array
      #expect(plain[0]["statistics"] == nil && plain[0]["entries"] == nil)

      let full = try await client.send(.get, "/api/v1/habits?include=statistics,entries&days=2", headers: ada)
      #expect(full.status == .ok)
      let read = full.array[0]
      #expect(read["name"] as? String == "Read")
      let statistics = try #require(read["statistics"] as? [String: Any])
      #expect(statistics["currentStreak"] as? Int == 5, "statistics look back past the entry window")
      #expect((read["entries"] as? [[String: Any]])?.map { $0["day"] as? String } == ["2026-03-07", "2026-03-08"])
      #expect((full.array[1]["entries"] as? [[String: Any]])?.isEmpty == true)

      let onlyEntries = try await client.send(.get, "/api/v1/habits?include=entries", headers: ada).array[0]
      #expect(onlyEntries["statistics"] == nil)
      #expect((onlyEntries["entries"] as? [Any])?.count == 5)

      for query in ["include=stats", "include=entries&days=0", "include=entries&days=3661", "include=entries&days=ten"] {
        let bad = try await client.send(.get, "/api/v1/habits?\(query)", headers: ada)
        #expect(bad.status == .badRequest, "\(query)")
      }
    }
  }

  @Test func signedOutRequestsAreRefused() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let id = UUID().uuidString.lowercased()
      let routes: [(HTTPRequest.Method, String)] = [
        (.get, "/api/v1/settings"), (.patch, "/api/v1/settings"), (.get, "/api/v1/habits"), (.post, "/api/v1/habits"),
        (.put, "/api/v1/habits/order"), (.get, "/api/v1/habits/\(id)"), (.patch, "/api/v1/habits/\(id)"),
        (.delete, "/api/v1/habits/\(id)"), (.post, "/api/v1/habits/\(id)/archive"), (.post, "/api/v1/habits/\(id)/unarchive"),
        (.get, "/api/v1/habits/\(id)/entries"), (.post, "/api/v1/habits/\(id)/entries"),
        (.put, "/api/v1/habits/\(id)/entries/2026-03-08"), (.delete, "/api/v1/habits/\(id)/entries/2026-03-08"),
        (.get, "/api/v1/stats"), (.get, "/api/v1/habits/\(id)/stats"), (.get, "/api/v1/grid"), (.get, "/api/v1/habits/\(id)/grid"),
      ]
      for (method, uri) in routes {
        let response = try await client.send(method, uri, json: method == .get || method == .delete ? nil : ["name": "x"])
        #expect(response.status == .unauthorized, "\(method) \(uri)")
      }
    }
  }

  /// Ids are not secrets: another user naming them gets exactly what a made-up id gets.
  @Test func anotherUsersHabitIsNotFoundAndStaysUnchanged() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: ada)["id"] as? String)
      #expect(try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-07", json: ["status": "done", "note": "ch. 1"], headers: ada).status == .ok)
      let before = try await client.send(.get, "/api/v1/habits/\(id)", headers: ada).text
      let bob = try await client.addMember("bob", owner: ada)

      let attempts: [(HTTPRequest.Method, String, Any?)] = [
        (.get, "/api/v1/habits/\(id)", nil),
        (.patch, "/api/v1/habits/\(id)", ["name": "Mine now"]),
        (.delete, "/api/v1/habits/\(id)", nil),
        (.post, "/api/v1/habits/\(id)/archive", nil),
        (.post, "/api/v1/habits/\(id)/unarchive", nil),
        (.get, "/api/v1/habits/\(id)/entries", nil),
        (.put, "/api/v1/habits/\(id)/entries/2026-03-08", ["status": "done"]),
        (.put, "/api/v1/habits/\(id)/entries/2026-03-07", ["status": "none"]),
        (.delete, "/api/v1/habits/\(id)/entries/2026-03-07", nil),
        (.post, "/api/v1/habits/\(id)/entries", ["days": ["2026-03-06"], "status": "skipped"]),
        (.get, "/api/v1/habits/\(id)/stats", nil),
        (.get, "/api/v1/habits/\(id)/grid", nil),
        (.put, "/api/v1/habits/order", ["ids": [id]]),
      ]
      for (method, uri, body) in attempts {
        let response = try await client.send(method, uri, json: body, headers: bob)
        #expect(response.status == .notFound, "\(method) \(uri): \(response.text)")
        #expect(response.detail == "There is no habit with id \(id).")
      }
      #expect(try await client.send(.get, "/api/v1/habits?archived=true", headers: bob).array.isEmpty)
      #expect(try await client.send(.get, "/api/v1/habits/\(id)", headers: ada).text == before)
      let entries = try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: ada).array
      #expect(entries.map { $0["day"] as? String } == ["2026-03-07"])
      #expect(entries.first?["note"] as? String == "ch. 1")
    }
  }
}
