import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// The Loop backup the import tests use, from the source tree.
let loopBackupFixture = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("TallyImportTests/Fixtures/Loop Habits Backup 2024-03-10 120000.db")

extension TestClientProtocol {
  func upload(_ uri: String, _ data: Data, headers: HTTPFields, type: String = "application/octet-stream")
    async throws -> TestResponse
  {
    try await executeRequest(
      uri: uri, method: .post, headers: headers.merging([.contentType: type]), body: ByteBuffer(bytes: data))
  }
}

@Suite struct ImportRouteTests {
  @Test func aLoopBackupIsPreviewedThenImportedOnce() async throws {
    let data = try Data(contentsOf: loopBackupFixture)
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let preview = try await client.upload("/api/v1/import?format=loop&dryRun=true", data, headers: ada)
      #expect(preview.status == .ok, "\(preview.text)")
      #expect(preview.object["dryRun"] as? Bool == true)
      #expect(preview.object["newHabits"] as? Int == 3)
      #expect(preview.object["entries"] as? Int == 16)
      #expect((preview.object["warnings"] as? [Any])?.count == 1)
      #expect(try await client.send(.get, "/api/v1/habits?archived=true", headers: ada).array.isEmpty)

      let imported = try await client.upload("/api/v1/import?format=loop-sqlite", data, headers: ada)
      #expect(imported.status == .ok)
      #expect(imported.object["dryRun"] as? Bool == false)
      #expect(imported.object["entries"] as? Int == 16)
      let habits = try await client.send(.get, "/api/v1/habits", headers: ada).array
      #expect(habits.map { $0["name"] as? String } == ["Meditate", "Gym, weights"])

      let again = try await client.upload("/api/v1/import?format=loop-sqlite", data, headers: ada)
      #expect(again.object["entries"] as? Int == 0)
      #expect(again.object["unchanged"] as? Int == 16)
    }
  }

  @Test func aMalformedFileIsRefusedNamingTheLineAndNothingChanges() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      _ = try await client.addHabit("Read", headers: ada)
      let before = try await client.send(.get, "/api/v1/export", headers: ada).text
      let csv = "habitName,day,status\nRead,2026-03-01,done\nRead,2026-03-32,done\n"
      let refused = try await client.upload("/api/v1/import?format=csv", Data(csv.utf8), headers: ada, type: "text/csv")
      #expect(refused.status == .unprocessableContent)
      #expect(refused.detail == "The file cannot be imported. Line 3 of the CSV file: the day '2026-03-32' is not written YYYY-MM-DD.")
      let garbage = try await client.upload("/api/v1/import?format=loop-sqlite", Data("hello".utf8), headers: ada)
      #expect(garbage.status == .unprocessableContent)
      let unknown = try await client.upload("/api/v1/import?format=xls", Data(csv.utf8), headers: ada)
      #expect(unknown.status == .badRequest)
      #expect(unknown.field == "format")
      #expect(try await client.send(.get, "/api/v1/export", headers: ada).text == before)
    }
  }

  /// Issue 17: a row wider or narrower than the header is refused, naming the line.
  @Test func aRaggedCSVRowIsRefused() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let csv = "habitId,habitName,day,status,note\n,Read,2026-03-01,done,,x,y\n"
      let refused = try await client.upload("/api/v1/import?format=csv", Data(csv.utf8), headers: ada, type: "text/csv")
      #expect(refused.status == .unprocessableContent)
      #expect(refused.detail == "The file cannot be imported. Line 2 of the CSV file: it has 7 fields where the header has 5.")
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.isEmpty)
    }
  }

  /// A member's import matches the member's habits only: the owner's habit named in the file
  /// by id stays as it was, and the member gets a habit of their own.
  @Test func anImportNeverReachesAnotherUsersHabits() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let read = try await client.addHabit("Read", headers: ada)
      let id = try #require(read["id"] as? String)
      let bob = try await client.addMember("bob", owner: ada)
      let csv = "habitId,habitName,day,status,note\n\(id),Read,2026-03-01,done,bob's\n"
      let imported = try await client.upload("/api/v1/import?format=csv", Data(csv.utf8), headers: bob, type: "text/csv")
      #expect(imported.status == .ok)
      #expect(imported.object["newHabits"] as? Int == 1)
      #expect(try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: ada).array.isEmpty)
      #expect(try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: bob).status == .notFound)
      let bobs = try await client.send(.get, "/api/v1/habits", headers: bob).array
      #expect(bobs.count == 1)
      #expect(bobs.first?["id"] as? String != id)
    }
  }

  @Test func aBeaverExportIsMerged() async throws {
    let json = #"{"habits": [{"name": "Stretch", "records": [{"day": "2026-03-01", "done": true, "text": "easy"}]}]}"#
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let imported = try await client.upload("/api/v1/import?format=beaver", Data(json.utf8), headers: ada, type: "application/json")
      #expect(imported.status == .ok)
      #expect(imported.object["notes"] as? Int == 1)
      let habits = try await client.send(.get, "/api/v1/habits", headers: ada).array
      #expect(habits.first?["createdDay"] as? String == "2026-03-01")
    }
  }

  @Test func aJSONDryRunWritesNothing() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      _ = try await client.addHabit("Read", headers: ada)
      let exported = try await client.send(.get, "/api/v1/export", headers: ada)
      let cyd = try await client.addMember("cyd", owner: ada)
      let ok = try await client.executeRequest(
        uri: "/api/v1/import?format=json&dryRun=true", method: .post,
        headers: cyd.merging([.contentType: "application/json"]), body: exported.body)
      #expect(ok.status == .ok)
      #expect(ok.object["habits"] as? Int == 1)
      #expect(try await client.send(.get, "/api/v1/habits", headers: cyd).array.isEmpty)
      let full = try await client.executeRequest(
        uri: "/api/v1/import?dryRun=true", method: .post,
        headers: ada.merging([.contentType: "application/json"]), body: exported.body)
      #expect(full.status == .conflict)
    }
  }

  @Test func exportsAsCSV() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let read = try await client.addHabit("Read, slowly", ["createdDay": "2026-03-01"], headers: ada)
      let id = try #require(read["id"] as? String)
      _ = try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-07", json: ["status": "done", "note": "ch. 3"], headers: ada)
      let csv = try await client.send(.get, "/api/v1/export?format=csv", headers: ada)
      #expect(csv.status == .ok)
      #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
      #expect(csv.text == "habitId,habitName,day,status,note,amount\r\n\(id),\"Read, slowly\",2026-03-07,done,ch. 3,\r\n")
      let bad = try await client.send(.get, "/api/v1/export?format=xml", headers: ada)
      #expect(bad.status == .badRequest)
    }
  }

  @Test func theBackupIsTheOwnersAlone() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      _ = try await client.addHabit("Read", headers: ada)
      let backup = try await client.send(.get, "/api/v1/backup", headers: ada)
      #expect(backup.status == .ok)
      #expect(backup.headers[.contentType] == "application/vnd.sqlite3")
      #expect(backup.headers[.contentDisposition] == "attachment; filename=\"tally-backup-2026-03-08.sqlite\"")
      #expect(Data(backup.body.readableBytesView).starts(with: Array("SQLite format 3\u{0}".utf8)))
      let bob = try await client.addMember("bob", owner: ada)
      #expect(try await client.send(.get, "/api/v1/backup", headers: bob).status == .forbidden)
      #expect(try await client.send(.get, "/api/v1/backup").status == .unauthorized)
    }
  }
}

/// Other apps' files uploaded without a format: the server tells the kind and names it.
@Suite struct DetectedImportRouteTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/fixtures").standardized

  @Test func aDaylioFileIsToldByItsContentsAndLandsInTheJournal() async throws {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("daylio/sample.csv"))
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let preview = try await client.upload("/api/v1/import?dryRun=true", data, headers: ada)
      #expect(preview.status == .ok, "\(preview.text)")
      #expect(preview.object["format"] as? String == "daylio")
      #expect(preview.object["formatTitle"] as? String == "Daylio CSV export")
      #expect(preview.object["journalAdded"] as? Int == 3)
      #expect((preview.object["habitList"] as? [Any])?.isEmpty == false)
      let imported = try await client.upload("/api/v1/import", data, headers: ada)
      #expect(imported.object["journalAdded"] as? Int == 3)
      let again = try await client.upload("/api/v1/import", data, headers: ada)
      #expect(again.object["journalUnchanged"] as? Int == 3)
      #expect(again.object["entries"] as? Int == 0)
    }
  }

  @Test func anEmptyOrUnknownUploadIsRefusedSayingWhatItIs() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let empty = try await client.upload("/api/v1/import", Data(), headers: ada)
      #expect(empty.status == .unprocessableContent)
      #expect(empty.detail == "The file cannot be imported. The file is empty (0 bytes).")
      let other = try await client.upload("/api/v1/import", Data("name,date\n".utf8), headers: ada)
      #expect(other.detail == "The file cannot be imported. Line 1: the header 'name,date' is not one of a CSV export Tally reads.")
      #expect(try await client.send(.get, "/api/v1/habits", headers: ada).array.isEmpty)
    }
  }
}
