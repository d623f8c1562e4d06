import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTestFiles
import Testing

/// Many clients writing at once through a real socket into a SQLite file: every write the
/// server acknowledged is in the file afterwards.
@Suite struct ConcurrentWriteTests {
  static let clients = 10
  static let daysPerClient = 100

  @Test func tenClientsSettingAHundredDaysEachLoseNothing() async throws {
    let folder = TestFiles.folder("concurrent")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tally.sqlite").path

    // The first client waits idle while the others write, longer than the usual time-out on a
    // loaded machine: it is not what this test is about (`.testing`, TestServer's default).
    try await TestServer(databasePath: path).testLive { client in
      let port = try #require(client.port)
      let owner = try await client.setUpOwner()
      let token = try await client.bearer(owner)
      let id = try #require(try await client.addHabit("Read", headers: token)["id"] as? String)
      let today = try #require(Day("2026-03-08"))
      var json = token
      json[.contentType] = "application/json"
      let headers = json

      // Each client writes its own hundred days, over its own connection, all at the same time.
      let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
        for number in 0..<Self.clients {
          group.addTask {
            // Time is not what this test is about: with the whole suite running on two cores,
            // CPU-bound tests beside it can hold both of Swift's cooperative threads, and the
            // server's answer then waited past the client's default 15 s (a readTimeout, once).
            try await TestClient.withClient(
              host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(300))
            ) { connection in
              var written: [String] = []
              for offset in 0..<Self.daysPerClient {
                let day = today.adding(days: -(number * Self.daysPerClient + offset)).description
                let status = offset.isMultiple(of: 2) ? "done" : "skipped"
                let response = try await connection.execute(
                  .init(
                    "/api/v1/habits/\(id)/entries/\(day)", method: .put, headers: headers,
                    body: ByteBuffer(string: #"{"status":"\#(status)"}"#)))
                if response.head.status == .ok { written.append(day) }
              }
              return written
            }
          }
        }
        return try await group.reduce(into: []) { $0 += $1 }
      }
      #expect(acknowledged.count == Self.clients * Self.daysPerClient)

      let read = try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: token)
      let stored = Set(read.array.compactMap { $0["day"] as? String })
      #expect(stored == Set(acknowledged))
    }
    // And the file holds them for the next process, too.
    let reopened = try TestServer(databasePath: path)
    let users = try await reopened.store.users()
    let habits = try await reopened.store.habits(for: try #require(users.first).id, includingArchived: true)
    let entries = try await reopened.store.entries(of: try #require(habits.first).id, for: users[0].id)
    #expect(entries.count == Self.clients * Self.daysPerClient)
  }
}
