import Foundation
import TallyCore
import TallyStore
import Testing

/// Measurable habits and every schedule from the command line; today is 2026-03-08.
@Suite struct MeasurableCommandTests {
  @Test func aMeasurableHabitIsMarkedWithAmounts() async throws {
    let tally = Harness()
    let id = try await tally.addHabit(
      "Run", "--target", "5", "--unit", "km", "--description", "Flat route", "--created", "2026-03-01")
    #expect(await tally.ok("mark", "Run", "5.2") == "Run: 2026-03-08 done (5.2 km). Current streak: 1 day.\n")
    await tally.ok("mark", "Run", "yesterday", "--amount", "2,5")
    #expect(
      try await tally.entries(of: id) == [
        HabitEntry(day: day("2026-03-07"), status: .done, amount: Amount(thousandths: 2_500)),
        HabitEntry(day: day("2026-03-08"), status: .done, amount: Amount(thousandths: 5_200)),
      ])
    let stats = await tally.ok("stats", "Run")
    #expect(stats.contains("5.2/5 km today"), "\(stats)")
    let grid = await tally.ok("grid", "Run")
    // Saturday holds half the target, Sunday all of it.
    #expect(grid.split(separator: "\n").contains { $0.hasPrefix("Sat") && $0.hasSuffix("▒") }, "\(grid)")
    #expect(grid.split(separator: "\n").contains { $0.hasPrefix("Sun") && $0.hasSuffix("□ █") }, "\(grid)")
    #expect(grid.contains("█ target"))
  }

  @Test func schedulesAndAtMostTargetsAreKept() async throws {
    let tally = Harness()
    let out = await tally.ok("habit", "add", "Coffee", "--target", "2", "--unit", "cups", "--at-most")
    #expect(out.hasPrefix("Added 'Coffee', daily, at most 2 cups, from 2026-03-08"))
    let swim = await tally.ok("habit", "add", "Swim", "--schedule", "3 in 10 days")
    #expect(swim.hasPrefix("Added 'Swim', 3 in 10 days, from"))
    await tally.ok("habit", "edit", "Swim", "--schedule", "2 a month")
    let list = await tally.ok("habit", "list")
    #expect(list.contains("2 a month"), "\(list)")
  }

  @Test func badAmountsAndSchedulesAreRefusedAndNothingChanges() async throws {
    let tally = Harness()
    let run = try await tally.addHabit("Run", "--target", "5")
    let read = try await tally.addHabit("Read")
    let cases: [([String], String)] = [
      (["mark", "Run"], "amount is required"),
      (["mark", "Read", "2"], "only for measurable habits"),
      (["mark", "Run", "--amount=-1"], "0 or more"),
      (["mark", "Run", "3", "--skip"], "no amount"),
      (["habit", "add", "Zero", "--target", "0"], "target must be more than 0"),
      (["habit", "add", "Odd", "--schedule", "0 in 3 days"], "times must be from 1 to 2"),
    ]
    for (arguments, words) in cases {
      let result = await tally.run(arguments)
      #expect(result.status != 0, "\(arguments)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
    }
    #expect(try await tally.entries(of: run).isEmpty)
    #expect(try await tally.entries(of: read).isEmpty)
  }
}

@Suite struct LoopRoundTripTests {
  /// A Loop backup imported, exported as Tally's JSON and imported into an empty database
  /// comes back unchanged: measures, schedules, descriptions, amounts and notes.
  @Test func aLoopFileSurvivesTallysJSONExportAndImport() async throws {
    let loop = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../shared/fixtures/loop/Loop Habits Backup 2025-06-30 big.db").standardized.path
    let source = Harness()
    await source.ok("import", loop)
    let first = await source.ok("export")
    #expect(first.contains("\"measure\" : {"))
    #expect(first.contains("\"timesInDays\""))
    let file = source.folder.appendingPathComponent("export.json").path
    try first.write(toFile: file, atomically: true, encoding: .utf8)
    let target = Harness()
    await target.ok("import", file)
    #expect(await target.ok("export") == first)
    #expect(try await target.snapshot() == source.snapshot())
  }
}
