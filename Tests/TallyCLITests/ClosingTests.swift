import Foundation
import Testing

/// A command that ends leaves what it wrote in the database file itself, so a copy of the
/// file alone, taken with no Tally running, is the whole database.
@Suite struct ClosingTests {
  @Test func aCommandsWritesAreInTheFileWhenItEnds() async throws {
    let harness = Harness()
    let read = try await harness.addHabit("Read")
    await harness.ok("mark", "Read", "--note", "chapter 3")
    let log = try FileManager.default.attributesOfItem(atPath: harness.path + "-wal")[.size] as? Int
    #expect(log == 0)

    var copy = Harness()
    try FileManager.default.copyItem(atPath: harness.path, toPath: copy.path)
    copy.environment["TALLY_DB"] = copy.path
    let listed = try #require(try await copy.run("habit", "list", "--json").json() as? [[String: Any]])
    #expect(listed.map { $0["name"] as? String } == ["Read"])
    #expect(try await copy.entries(of: read).map(\.note) == ["chapter 3"])
  }
}
