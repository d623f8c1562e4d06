import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct StatsCommandTests {
  @Test func jsonHasExactlySpecKeysPerHabit() async throws {
    let tally = Harness()
    let read = try await tally.addHabit("Read", "--created", "2026-03-01")
    _ = try await tally.addHabit("Run", "--weekly", "2", "--created", "2026-03-01")
    await tally.ok("mark", "Read", "2026-03-01..2026-03-08")
    await tally.ok("mark", "Run", "2026-03-02", "2026-03-04", "2026-03-08")
    let run = await tally.run("stats", "--json")
    #expect(run.status == 0)
    let list = try #require(try run.json() as? [[String: Any]])
    #expect(list.count == 2)
    for object in list {
      #expect(Set(object.keys) == [
        "id", "name", "currentStreak", "longestStreak", "streakUnit", "completionRate",
        "completionsThisWeek", "weeklyProgress", "score", "periodProgress", "periodAmount",
        "periodCompletions",
      ])
    }
    let first = list[0]
    #expect(first["id"] as? String == read.storeText)
    #expect(first["currentStreak"] as? Int == 8)
    #expect(first["longestStreak"] as? Int == 8)
    #expect(first["streakUnit"] as? String == "day")
    #expect(first["completionRate"] as? Double == 1)
    #expect(first["completionsThisWeek"] as? Int == 1)
    let second = list[1]
    #expect(second["name"] as? String == "Run")
    #expect(second["streakUnit"] as? String == "week")
    #expect(second["currentStreak"] as? Int == 1)
    #expect(second["weeklyProgress"] as? Double == 0.5)
    // Run's week (from Sunday 8 March) holds one of its two; Read's day, one.
    #expect(second["periodCompletions"] as? Int == 1)
    #expect(first["periodCompletions"] as? Int == 1)
  }

  @Test func humanOutputIsAlignedAndRanked() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Walk", "--created", "2026-03-05")
    _ = try await tally.addHabit("Read", "--created", "2026-03-05")
    await tally.ok("mark", "Read", "2026-03-05..2026-03-08")
    await tally.ok("mark", "Walk", "2026-03-07")
    let out = await tally.ok("stats")
    #expect(out == """
      HABIT  STREAK  LONGEST  RATE       PROGRESS  SCORE
      Read   4 days   4 days  100%  1/7 this week    19%
      Walk    1 day    1 day   33%  0/7 this week     5%

      """)
  }

  @Test func oneHabitAndArchivedOnes() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    _ = try await tally.addHabit("Old")
    await tally.ok("habit", "archive", "Old")
    let all = try #require(try await tally.run("stats", "--json").json() as? [[String: Any]])
    #expect(all.map { $0["name"] as? String } == ["Read"])
    let withArchived = try #require(try await tally.run("stats", "--archived", "--json").json() as? [[String: Any]])
    #expect(withArchived.count == 2)
    let one = try #require(try await tally.run("stats", "Old", "--json").json() as? [[String: Any]])
    #expect(one.map { $0["name"] as? String } == ["Old"])
  }
}
