import Foundation
import TallyCore
import TallyHTTP
import TallySQLite
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTestFiles
import Testing

@Suite struct DailyBackupsTests {
  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ date: Date) { current = date }
    var now: Date { lock.withLock { current } }
    func advance(days: Int) { lock.withLock { current += TimeInterval(days * 86_400) } }
  }

  @Test func oneBackupADayTheNewestKeptAndNothingElseTouched() async throws {
    let folder = TestFiles.folder("backups")
    let database = try AppDatabase.open(at: folder.appendingPathComponent("tally.sqlite").path)
    let store = SQLiteStore(database)
    _ = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    let directory = folder.appendingPathComponent("backups").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // Someone else's files, one named almost like a backup.
    for name in ["notes.txt", "tally-backup-latest.sqlite"] {
      try Data("mine".utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }
    // 23:30 UTC on 8 March: still the 8th in UTC, though the 9th in Berlin.
    let clock = Clock(Date(timeIntervalSince1970: 1_773_012_600))
    let backups = DailyBackups(database: database, directory: directory, keep: 2, clock: { clock.now })

    let first = try backups.backUpIfDue()
    #expect(first == URL(fileURLWithPath: directory).appendingPathComponent("tally-backup-2026-03-08.sqlite").path)
    #expect(try backups.backUpIfDue() == nil)
    for _ in 0..<3 {
      clock.advance(days: 1)
      #expect(try backups.backUpIfDue() != nil)
    }
    #expect(try backups.backups() == ["tally-backup-2026-03-11.sqlite", "tally-backup-2026-03-10.sqlite"])
    let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    #expect(left == ["notes.txt", "tally-backup-2026-03-10.sqlite", "tally-backup-2026-03-11.sqlite", "tally-backup-latest.sqlite"])
    // Each backup is a Tally database holding the data.
    let copy = SQLiteStore(try AppDatabase.open(at: URL(fileURLWithPath: directory).appendingPathComponent(left[2]).path))
    #expect(try await copy.users().map(\.name) == ["ada"])
  }
}
