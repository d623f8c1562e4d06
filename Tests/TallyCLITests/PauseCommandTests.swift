import Foundation
import TallyCore
import TallyStore
import Testing

/// Weekday schedules and pauses from the command line; today is 2026-03-08, a Sunday.
@Suite struct PauseCommandTests {
  @Test func aWeekdayHabitKeepsItsDaysAndItsStreakAcrossOtherDays() async throws {
    let tally = Harness()
    let out = await tally.ok("habit", "add", "Gym", "--weekdays", "mon,wed,fri", "--created", "2026-03-01")
    #expect(out.hasPrefix("Added 'Gym', mon, wed, fri, from 2026-03-01"), "\(out)")
    await tally.ok("mark", "Gym", "2026-03-02..2026-03-02")
    await tally.ok("mark", "Gym", "2026-03-04")
    await tally.ok("mark", "Gym", "2026-03-06")
    let stats = try await tally.statistics(of: "Gym")
    #expect(stats?["currentStreak"] as? Int == 3)
    #expect(stats?["completionRate"] as? Double == 1)
    let grid = await tally.ok("grid", "Gym")
    #expect(grid.contains("- not scheduled"), "\(grid)")
    await tally.ok("habit", "edit", "Gym", "--weekdays", "tue,thu")
    #expect(await tally.ok("habit", "list").contains("tue, thu"))
  }

  @Test func pauseListAndResume() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read", "--created", "2026-03-01")
    #expect(await tally.ok("pause", "Read", "--from", "2026-03-05") == "Paused 'Read' from 2026-03-05 until resumed.\n")
    #expect(
      await tally.ok("pause", "--all", "--from", "2026-03-20", "--until", "2026-03-27")
        == "Paused all habits from 2026-03-20 through 2026-03-27.\n")
    let list = await tally.ok("pause", "--list")
    #expect(list.contains("'Read'") && list.contains("all habits") && list.contains("resumed"), "\(list)")
    #expect(await tally.ok("resume", "Read", "--on", "2026-03-07") == "Resumed 'Read' from 2026-03-07.\n")
    let pauses = try #require(try await tally.run("pause", "--list", "--json").json() as? [[String: Any]])
    #expect(pauses.compactMap { $0["until"] as? String }.sorted() == ["2026-03-06", "2026-03-27"])
    let stats = try await tally.statistics(of: "Read")
    // 1–4 March not done, 5–6 paused, 7–8 not done yet: the paused days count for nothing.
    #expect(stats?["completionRate"] as? Double == 0)
  }

  @Test func badSchedulesAndPausesAreRefusedAndNothingChanges() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read", "--created", "2026-03-01")
    await tally.ok("pause", "Read", "--from", "2026-03-01", "--until", "2026-03-04")
    let cases: [([String], String)] = [
      (["habit", "add", "None", "--weekdays", ""], "weekdays must name at least one day"),
      (["habit", "add", "All", "--weekdays", "mon,tue,wed,thu,fri,sat,sun"], "all 7 is a daily habit"),
      (["habit", "add", "Twice", "--weekdays", "mon,mon"], "names monday twice"),
      (["habit", "add", "Odd", "--weekdays", "mon,funday"], "'funday', which is not a weekday"),
      (["habit", "add", "Both", "--weekdays", "mon", "--schedule", "daily"], "not both"),
      (["pause", "Read", "--from", "2026-03-04"], "shares days with another pause of this habit"),
      (["pause", "--all", "--from", "2026-03-09", "--until", "2026-03-01"], "until must be on or after"),
      (["pause", "--all", "--from", "1969-12-31"], "from must be from 1970-01-01"),
      (["pause", "Read", "--all"], "one of them"),
      (["resume", "--all"], "had no pause"),
    ]
    for (arguments, words) in cases {
      let result = await tally.run(arguments)
      #expect(result.status != 0, "\(arguments)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
    }
    #expect(await tally.ok("habit", "list").contains("Read"))
    #expect(try #require(try await tally.run("pause", "--list", "--json").json() as? [[String: Any]]).count == 1)
  }
}

extension Harness {
  /// One habit's figures from `stats --json`.
  func statistics(of name: String) async throws -> [String: Any]? {
    let list = try #require(try await run("stats", "--json").json() as? [[String: Any]])
    return list.first { $0["name"] as? String == name }
  }
}

@Suite struct ScheduleTransferTests {
  /// A weekday habit and pauses of one habit and of all survive export and import into an
  /// empty database, byte for byte.
  @Test func weekdaysAndPausesSurviveExportAndImport() async throws {
    let source = Harness()
    _ = try await source.addHabit("Gym", "--weekdays", "mon,wed,fri", "--created", "2026-03-01")
    await source.ok("mark", "Gym", "2026-03-02")
    await source.ok("pause", "Gym", "--from", "2026-03-04", "--until", "2026-03-06")
    await source.ok("pause", "--all", "--from", "2026-03-20")
    let first = await source.ok("export")
    #expect(first.contains("\"weekdays\" : ["), "\(first)")
    #expect(first.contains("\"pauses\" : ["))
    let file = source.folder.appendingPathComponent("export.json").path
    try first.write(toFile: file, atomically: true, encoding: .utf8)
    let target = Harness()
    await target.ok("import", file)
    #expect(await target.ok("export") == first)
    #expect(await target.ok("pause", "--list") == (await source.ok("pause", "--list")))
  }
}
