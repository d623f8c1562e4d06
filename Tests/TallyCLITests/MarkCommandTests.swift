import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct MarkCommandTests {
  @Test func marksTodayByDefault() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    let out = await tally.ok("mark", "Read")
    #expect(out == "Read: 2026-03-08 done. Current streak: 1 day.\n")
    #expect(try await tally.entries(of: id) == [HabitEntry(day: day("2026-03-08"), status: .done)])
  }

  @Test func marksSeveralDaysRangesAndWordsAtOnce() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read", "--created", "2026-03-01")
    let out = await tally.ok("mark", "Read", "2026-03-01..2026-03-03", "yesterday", "today", "2026-03-02")
    #expect(out == "Read: 2026-03-01, 2026-03-02, 2026-03-03, 2026-03-07 and 2026-03-08 done. Current streak: 2 days.\n")
    #expect(try await tally.entries(of: id).map(\.day.description) == [
      "2026-03-01", "2026-03-02", "2026-03-03", "2026-03-07", "2026-03-08",
    ])
  }

  @Test func markingTwiceChangesNothing() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    await tally.ok("mark", "Read", "--note", "chapter 3")
    let first = try await tally.entries(of: id)
    await tally.ok("mark", "Read")
    #expect(try await tally.entries(of: id) == first)
    #expect(first == [HabitEntry(day: day("2026-03-08"), status: .done, note: "chapter 3")])
  }

  @Test func skipUndoAndNotes() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    #expect(await tally.ok("mark", "Read", "2026-03-07", "--skip", "--note", "ill") == "Read: 2026-03-07 skipped, with the note. Current streak: 0 days.\n")
    #expect(try await tally.entries(of: id) == [HabitEntry(day: day("2026-03-07"), status: .skipped, note: "ill")])
    await tally.ok("mark", "Read", "2026-03-07", "--note", "")
    #expect(try await tally.entries(of: id) == [HabitEntry(day: day("2026-03-07"), status: .done)])
    #expect(await tally.ok("mark", "Read", "2026-03-07", "--undo") == "Read: 2026-03-07 cleared. Current streak: 0 days.\n")
    #expect(try await tally.entries(of: id).isEmpty)
  }

  @Test func aNoteIsKeptOnADayNotDone() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    #expect(
      await tally.ok("mark", "Read", "2026-03-07", "--not-done", "--note", "too tired")
        == "Read: 2026-03-07 kept not done, with the note. Current streak: 0 days.\n")
    #expect(try await tally.entries(of: id) == [HabitEntry(day: day("2026-03-07"), status: .noted, note: "too tired")])
    // Marked done later, the note stays; --undo clears everything.
    await tally.ok("mark", "Read", "2026-03-07")
    #expect(try await tally.entries(of: id) == [HabitEntry(day: day("2026-03-07"), status: .done, note: "too tired")])
    await tally.ok("mark", "Read", "2026-03-07", "--undo")
    #expect(try await tally.entries(of: id).isEmpty)
    for arguments in [["--not-done"], ["--not-done", "--note", " "], ["--not-done", "--skip", "--note", "x"]] {
      let run = await tally.run(["mark", "Read", "2026-03-07"] + arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(!run.stderr.isEmpty)
    }
    let empty = await tally.run("mark", "Read", "--not-done")
    #expect(empty.stderr.contains("note"), "\(empty.stderr)")
    #expect(try await tally.entries(of: id).isEmpty)
  }

  @Test func aFutureDayIsRefusedAndNoDayChanges() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    let run = await tally.run("mark", "Read", "2026-03-07", "2026-03-09")
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "Error: The day 2026-03-09 is in the future (today is 2026-03-08); only days up to today can be marked.\n")
    let beforeAll = await tally.run("mark", "Read", "0000-12-31", "2026-03-07")
    #expect(beforeAll.status == 1)
    #expect(beforeAll.stderr == "Error: The day 0000-12-31 is before 0001-01-01, the first day Tally keeps.\n")
    #expect(try await tally.entries(of: id).isEmpty)
  }

  @Test func todayFollowsTheUsersZoneAndDaySwitchHour() async throws {
    // 02:30 in Berlin on Monday 9 March is still Sunday with a switch hour of 3.
    var tally = Harness(now: "2026-03-09T01:30:00Z", timeZone: "Europe/Berlin")
    await tally.ok("settings", "--day-switch-hour", "3")
    let id = try await tally.addHabit("Read")
    await tally.ok("mark", "Read")
    #expect(try await tally.entries(of: id).map(\.day) == [day("2026-03-08")])
    tally.environment["TALLY_NOW"] = "2026-03-09T02:30:00Z"
    await tally.ok("mark", "Read")
    #expect(try await tally.entries(of: id).map(\.day) == [day("2026-03-08"), day("2026-03-09")])
    let future = await tally.run("--now", "2026-03-09T01:30:00Z", "mark", "Read", "2026-03-09")
    #expect(future.status == 1)
  }

  @Test(arguments: [
    (["mark", "Read", "--skip", "--undo"], "Error: Give one of --skip, --not-done and --undo."),
    (["mark", "Read", "--undo", "--note", "x"], "Error: --undo removes the days' notes with their entries; it takes no --note."),
    (["mark", "Read", "2026-3-1"], "Error: The day must be a date written YYYY-MM-DD like 2026-03-08, today, yesterday or a range FIRST..LAST, not '2026-3-1'."),
    (["mark", "Read", "--note", String(repeating: "x", count: 2001)], "Error: The note must be at most 2000 characters (this one has 2001)."),
    (["--now", "tomorrow", "mark", "Read"], "Error: The --now value must be an instant in RFC 3339 like 2026-03-08T09:30:00Z, not 'tomorrow'."),
  ])
  func badArgumentsAreUsageErrors(arguments: [String], message: String) async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    let run = await tally.run(arguments)
    #expect(run.status == 64)
    #expect(run.stderr == message + "\n")
    #expect(try await tally.entries(of: id).isEmpty)
  }

  @Test func aRangeThatEndsBeforeItStartsIsRefused() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    let run = await tally.run("mark", "Read", "2026-03-05..2026-03-01")
    #expect(run.status == 1)
    #expect(run.stderr == "Error: The range 2026-03-05..2026-03-01 must not end before it starts.\n")
  }

  @Test func jsonPrintsTheDaysEntries() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    let run = await tally.run("mark", "Read", "2026-03-06..2026-03-07", "--note", "ok", "--json")
    let list = try #require(try run.json() as? [[String: Any]])
    #expect(list.count == 2)
    #expect(list[0]["day"] as? String == "2026-03-06")
    #expect(list[0]["status"] as? String == "done")
    #expect(list[0]["note"] as? String == "ok")
  }

  @Test func aBadTallyNowIsNamed() async throws {
    var tally = Harness()
    tally.environment["TALLY_NOW"] = "yesterday"
    let run = await tally.run("habit", "list")
    #expect(run.status == 64)
    #expect(run.stderr == "Error: The TALLY_NOW value must be an instant in RFC 3339 like 2026-03-08T09:30:00Z, not 'yesterday'.\n")
  }
}
