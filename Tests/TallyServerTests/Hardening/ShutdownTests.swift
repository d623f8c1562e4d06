import Foundation
import HummingbirdTesting
import TallyHTTP
import TallySQLite
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTestFiles
import Testing

/// `tally serve` stopped gracefully: the requests finish, then the database closes, leaving
/// everything acknowledged in the file itself (what a copy of a stopped server's file holds).
@Suite struct ShutdownTests {
  @Test func aStoppedServerLeavesItsWritesInTheFile() async throws {
    let folder = TestFiles.folder("shutdown")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tally.sqlite").path
    var configuration = ServerConfiguration(databasePath: path, passwordCost: 4)
    configuration.port = 0
    configuration.idleTimeout = ServerConfiguration.testing.idleTimeout
    let app = try await buildApplication(configuration)
    try await app.test(.live) { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addHabit("Stretch", headers: owner)
    }
    let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
    #expect(log == 0)
    let copy = folder.appendingPathComponent("copy.sqlite").path
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let store = SQLiteStore(try AppDatabase.open(at: copy))
    let owner = try #require(try await store.users().first)
    #expect(try await store.habits(for: owner.id, includingArchived: true).map(\.name) == ["Stretch"])
  }
}
