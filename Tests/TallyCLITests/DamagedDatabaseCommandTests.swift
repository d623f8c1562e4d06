import Foundation
import TallyTestFiles
import Testing

/// Issue 29: a damaged database is refused by every command, `serve` included, with exit 74,
/// and the refusal leaves its folder exactly as it was (no `-wal` or `-shm` beside the file).
@Suite struct DamagedDatabaseCommandTests {
  // `serve` refuses before it listens, so the port is never taken.
  static let commands = [["habit", "list"], ["serve", "--port", "1"]]

  @Test(arguments: commands)
  func aDatabaseCutInHalfIsRefusedAndItsFolderKept(command: [String]) async throws {
    let tally = Harness()
    for index in 0..<120 {
      _ = await tally.ok("habit", "add", "Habit \(index)", "--description", String(repeating: "x", count: 400))
    }
    let whole = try Data(contentsOf: URL(fileURLWithPath: tally.path))
    // Half the file copied alone, as a transfer cut short leaves it.
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: tally.path))
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: tally.path + suffix) }
    try await Self.expectRefusal(command, in: tally)
  }

  @Test(arguments: commands)
  func anSQLiteHeaderFollowedByGarbageIsRefusedAndItsFolderKept(command: [String]) async throws {
    let tally = Harness()
    var damaged = Data("SQLite format 3\u{0}".utf8)
    damaged.append(Data((0..<8_176).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: tally.path).deletingLastPathComponent(), withIntermediateDirectories: true)
    try damaged.write(to: URL(fileURLWithPath: tally.path))
    try await Self.expectRefusal(command, in: tally)
  }

  static func expectRefusal(
    _ command: [String], in tally: Harness, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let before = try TestFiles.contents(ofFolderHolding: tally.path)
    let run = await tally.run(command)
    #expect(run.status == 74, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("Error: The database \(tally.path) could not be opened"), "\(run.stderr)", sourceLocation: sourceLocation)
    let after = try TestFiles.contents(ofFolderHolding: tally.path)
    #expect(
      after == before, "\(before.mapValues(\.count)) became \(after.mapValues(\.count))", sourceLocation: sourceLocation)
  }
}
