import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

@Suite struct TransferRouteTests {
  /// Ada's data, exported, imported into a new server's empty account and exported again,
  /// is the same document but for whose it is.
  @Test func anExportImportedIntoAnEmptyAccountExportsTheSame() async throws {
    let exported = try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let habit = try await client.send(.post, "/api/v1/habits", json: ["name": "Read", "createdDay": "2026-03-01"], headers: ada)
      let id = try #require(habit.object["id"] as? String)
      _ = try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-07", json: ["status": "done", "note": "ch. 3"], headers: ada)
      _ = try await client.send(.put, "/api/v1/journal/2026-03-07", json: ["text": "A good day"], headers: ada)
      let pause = try await client.send(
        .post, "/api/v1/pauses", json: ["habitId": id, "from": "2026-03-02", "until": "2026-03-04"], headers: ada)
      #expect(pause.status == .created)
      let exported = try await client.send(.get, "/api/v1/export", headers: ada)
      #expect(exported.status == .ok)
      #expect(exported.headers[.contentDisposition]?.contains("attachment") == true)

      // The same ids are Ada's on this server: Bob's import gets new ids, keeps the links
      // between the file's records, and says nothing about Ada.
      _ = try await client.send(.post, "/api/v1/users", json: ["name": "bob", "password": "battery staple"], headers: ada)
      let bob = try await client.signIn("bob", password: "battery staple")
      let preview = try await client.executeRequest(
        uri: "/api/v1/import?dryRun=true", method: .post, headers: bob.merging([.contentType: "application/json"]),
        body: exported.body)
      #expect(preview.status == .ok)
      let second = try await client.executeRequest(
        uri: "/api/v1/import", method: .post, headers: bob.merging([.contentType: "application/json"]),
        body: exported.body)
      #expect(second.status == .created)
      #expect(!String(buffer: second.body).contains(id))
      let bobs = try await client.send(.get, "/api/v1/habits", headers: bob).array
      let bobsID = try #require(bobs.first?["id"] as? String)
      #expect(bobs.map { $0["name"] as? String } == ["Read"] && bobsID != id)
      let entries = try await client.send(.get, "/api/v1/habits/\(bobsID)/entries", headers: bob)
      #expect(entries.array.map { $0["note"] as? String } == ["ch. 3"])
      #expect(try await client.send(.get, "/api/v1/habits/\(id)", headers: ada).object["name"] as? String == "Read")
      return exported
    }
    try await TestServer().test { client in
      let cyd = try await client.setUpOwner("cyd")
      let imported = try await client.executeRequest(
        uri: "/api/v1/import", method: .post, headers: cyd.merging([.contentType: "application/json"]),
        body: exported.body)
      #expect(imported.status == .created)
      #expect(imported.object["habits"] as? Int == 1)
      #expect(imported.object["entries"] as? Int == 1)
      #expect(imported.object["journalEntries"] as? Int == 1)
      #expect(imported.object["pauses"] as? Int == 1)

      let again = try await client.send(.get, "/api/v1/export", headers: cyd)
      var first = exported.object
      var second = again.object
      #expect((second["user"] as? [String: Any])?["name"] as? String == "cyd")
      first["user"] = nil
      second["user"] = nil
      #expect(NSDictionary(dictionary: first) == NSDictionary(dictionary: second))

      // Cyd has data now: a second import is refused and changes nothing.
      let twice = try await client.executeRequest(
        uri: "/api/v1/import", method: .post, headers: cyd.merging([.contentType: "application/json"]),
        body: exported.body)
      #expect(twice.status == .conflict)
      #expect(try await client.send(.get, "/api/v1/habits", headers: cyd).array.count == 1)
    }
  }

  @Test func aBrokenDocumentIsRefusedNamingWhereAndChangesNothing() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let notExport = try await client.send(.post, "/api/v1/import", json: ["format": "csv"], headers: ada)
      #expect(notExport.status.code == 422)
      #expect(notExport.detail.contains("not a Tally export"))

      var document = try await client.send(.get, "/api/v1/export", headers: ada).object
      document["habits"] = [["habit": ["id": UUID().uuidString, "name": "Bad", "color": "purple", "createdDay": "2026-03-01",
        "frequency": ["type": "daily"], "reminder": ["type": "none"], "archived": false, "sortOrder": 0], "entries": []]]
      let badColour = try await client.send(.post, "/api/v1/import", json: document, headers: ada)
      #expect(badColour.status.code == 422)
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.isEmpty)
    }
  }

  /// Issue 17: an episode of a show the file does not hold is the file's fault, named.
  @Test func anEpisodeOfAnUnknownShowIsA422NamingTheRecord() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      var document = try await client.send(.get, "/api/v1/export", headers: ada).object
      let stranger = UUID().uuidString.lowercased()
      document["episodes"] = [["showId": stranger, "season": 1, "number": 2, "title": "Two", "airDay": "2026-03-01"]]
      let refused = try await client.send(.post, "/api/v1/import", json: document, headers: ada)
      #expect(refused.status == .unprocessableContent, "\(refused.detail)")
      #expect(refused.field == "episodes[0]")
      #expect(refused.detail.contains("names the show \(stranger), which is not among the shows"), "\(refused.detail)")
    }
  }

  @Test func signedOutNobodyExportsOrImports() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      #expect(try await client.send(.get, "/api/v1/export").status == .unauthorized)
      #expect(try await client.send(.post, "/api/v1/import", json: ["format": "tally-export"]).status == .unauthorized)
    }
  }
}

extension HTTPFields {
  func merging(_ other: HTTPFields) -> HTTPFields {
    var merged = self
    for field in other { merged[field.name] = field.value }
    return merged
  }
}
