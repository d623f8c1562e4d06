import Foundation
import GRDB
import TallyCore
import TallyStore
import TallyTestFiles
import Testing

@testable import TallySQLite

/// Issue 29: a damaged file is refused, and the refusal leaves its folder exactly as it was —
/// no `-wal` or `-shm` beside it, every byte the same.
@Suite struct DamagedDatabaseTests {
  @Test func anSQLiteHeaderFollowedByGarbageIsRefusedAndTheFolderKept() throws {
    let path = temporaryDatabasePath()
    var damaged = Data("SQLite format 3\u{0}".utf8)
    damaged.append(Data((0..<8_176).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
    try damaged.write(to: URL(fileURLWithPath: path))
    try Self.expectRefusalKeepsTheFolder(path)
  }

  @Test func aTallyDatabaseCutInHalfIsRefusedAndTheFolderKept() async throws {
    let path = temporaryDatabasePath()
    let database = try AppDatabase.open(at: path)
    let store = SQLiteStore(database)
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    // Enough rows for many pages, so half the file holds the schema but not the rest.
    for index in 0..<200 {
      _ = try await store.createHabit(
        Habit(
          id: UUID(), name: "Habit \(index)", createdDay: day("2026-01-01"),
          description: String(repeating: "x", count: 400)),
        for: user.id)
    }
    try database.close()
    let whole = try bytes(path)
    // Half the file copied alone, as a transfer cut short leaves it.
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try Self.expectRefusalKeepsTheFolder(path)
  }

  static func expectRefusalKeepsTheFolder(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try TestFiles.contents(ofFolderHolding: path)
    #expect(sourceLocation: sourceLocation) {
      try AppDatabase.open(at: path)
    } throws: { error in
      guard case StoreError.unreadable(let failed, _) = error else { return false }
      return failed == path
    }
    let after = try TestFiles.contents(ofFolderHolding: path)
    #expect(after == before, "\(before.mapValues(\.count)) became \(after.mapValues(\.count))", sourceLocation: sourceLocation)
  }
}
