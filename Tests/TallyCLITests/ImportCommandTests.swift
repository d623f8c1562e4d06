import Foundation
import TallyCore
import TallyStore
import Testing

/// The Loop files the import tests use, from the source tree.
let importFixtures = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("TallyImportTests/Fixtures")
let loopBackup = importFixtures.appendingPathComponent("Loop Habits Backup 2024-03-10 120000.db").path
let loopZip = importFixtures.appendingPathComponent("Loop Habits CSV 2024-03-10.zip").path

@Suite struct ImportCommandTests {
  @Test func aLoopBackupIsToldByItsContentsPreviewedAndImportedOnce() async throws {
    let tally = Harness(timeZone: "Pacific/Apia")
    await tally.ok("settings")
    let before = try await tally.snapshot()
    let preview = await tally.ok("import", loopBackup, "--dry-run")
    #expect(
      preview == """
        Would import the Loop Habit Tracker backup into 'ada': 3 habits (3 new, 0 already here), 16 entries added, 3 notes, 0 unchanged, 0 conflicts and 1 warning.
        Habits:
          'Meditate' (new): 8 days, 2 notes to add
          'Read élèves' (new): 4 days, 1 note to add
          'Gym, weights' (new): 4 days to add
        Warnings (what is not carried, or not exactly):
          'Read élèves': its reminder at 21:00 was on some weekdays only; Tally reminds every day
        Nothing was written (--dry-run).

        """)
    #expect(try await tally.snapshot() == before)

    let imported = await tally.ok("import", loopBackup)
    #expect(imported.hasPrefix("Imported the Loop Habit Tracker backup into 'ada': 3 habits (3 new, 0 already here), 16 entries added,"))
    let stats = try #require(try await tally.run("stats", "Meditate", "--json").json() as? [[String: Any]])
    #expect(stats.first?["longestStreak"] as? Int == 2)

    // The CSV export of the same data adds nothing more: every day is already there.
    let again = await tally.ok("import", loopZip)
    #expect(again.hasPrefix("Imported the Loop Habit Tracker CSV export into 'ada': 3 habits (0 new, 3 already here), 0 entries added, 0 notes, 16 unchanged, 0 conflicts"))
  }

  @Test func conflictsAreListedAndKept() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Meditate", "--created", "2024-01-01")
    await tally.ok("mark", "Meditate", "2024-03-01", "--skip", "--note", "travel")
    let out = await tally.ok("import", loopZip, "--format", "loop-csv")
    #expect(out.contains("1 conflict"))
    #expect(out.contains("Conflicts, kept as they were:\n  'Meditate' 2024-03-01: skipped here, done in the file\n"))
    #expect(try await tally.entries(of: id).first == HabitEntry(day: day("2024-03-01"), status: .skipped, note: "travel"))
  }

  @Test func progressGoesToATerminalOnly() async throws {
    var tally = Harness()
    #expect(await tally.run("import", loopBackup).stderr == "")
    tally = Harness()
    tally.isErrorTerminal = true
    let run = await tally.run("import", loopBackup)
    #expect(run.stderr.hasPrefix("\rReading repetitions 16/16"))
  }

  @Test func aBeaverFileIsImported() async throws {
    let tally = Harness()
    let file = tally.folder.appendingPathComponent("beaver.json").path
    try #"{"habits": [{"name": "Stretch", "records": [{"day": "2026-03-01", "done": true}]}]}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    #expect(await tally.ok("import", file).hasPrefix("Imported the Beaver Habit Tracker export into 'ada': 1 habit (1 new"))
  }

  @Test func anUnknownKindOfFileIsNamed() async throws {
    let tally = Harness()
    let file = tally.folder.appendingPathComponent("notes.txt").path
    try "hello".write(toFile: file, atomically: true, encoding: .utf8)
    let run = await tally.run("import", file)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "Error: Tally cannot tell what kind of file \(file) is (line 1: the header 'hello' is not one of a CSV export Tally reads); "
        + "name it with --format loop, loop-csv, beaver, json, csv, daylio, dayone, dayone-classic, habitbull, rewire, tickmate, streaks, habitkit, tablehabit, habitica, habitica-csv.\n")
    let wrong = await tally.run("import", loopBackup, "--format", "beaver")
    #expect(wrong.stderr == "Error: The file is not a Beaver Habit Tracker export: it is not JSON. Nothing was imported.\n")
  }
}

/// Other apps' real files (../shared/fixtures beside the package, as in CI) through `tally import`.
@Suite struct OtherAppImportCommandTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/fixtures").standardized

  @Test func aDayOneClassicFolderGoesIntoTheJournalAndSaysWhatItLeftOut() async throws {
    let tally = Harness()
    let folder = Self.fixtures.appendingPathComponent("dayone/bug153.dayone").path
    let preview = await tally.ok("import", folder, "--dry-run")
    #expect(
      preview.hasPrefix(
        "Would import the Day One Classic journal into 'ada': 0 habits (0 new, 0 already here), 0 entries added, 0 notes, "
          + "0 unchanged, 0 conflicts, 1 journal day (1 new, 0 added to, 0 unchanged) and 2 warnings.\n"))
    #expect(preview.contains("\n  entries that are not readable property lists are not carried: entries/B40EE704E15846DE8D45C44118A4D512.doentry\n"))
    #expect(await tally.ok("import", folder).hasPrefix("Imported the Day One Classic journal"))
    #expect(await tally.ok("import", folder).contains("1 journal day (0 new, 0 added to, 1 unchanged)"))
  }

  @Test func formatOverridesWhatTheContentsSay() async throws {
    let tally = Harness()
    let file = Self.fixtures.appendingPathComponent("habitbull/habitbull.csv").path
    let wrong = await tally.run("import", file, "--format", "streaks")
    #expect(wrong.status == 1)
    #expect(wrong.stderr.hasPrefix("Error: Line 1 of the Streaks CSV: the header lacks task_id, title, entry_type, entry_date, so it is not an export of Streaks;"))
    let right = await tally.ok("import", file, "--dry-run")
    #expect(right.hasPrefix("Would import the HabitBull CSV export into 'ada': 4 habits (4 new, 0 already here), 14 entries added, 1 note,"))
    #expect(right.contains("Habits:\n  'Breed dragons' (new): 3 days, 1 note to add\n"))
  }
}

extension OtherAppImportCommandTests {
  /// Import several apps' files, export as Tally JSON, import that into a fresh database: the
  /// same habits, days and journal; the original files then add nothing there either.
  @Test func importedHistoryRoundTripsThroughTallysExport() async throws {
    let files = ["daylio/sample.csv", "dayone/dayone2.json", "tickmate/tickmate.db", "streaks/streaks.csv"]
      .map { Self.fixtures.appendingPathComponent($0).path }
    let first = Harness(now: "2026-12-01T12:00:00Z")
    for file in files { await first.ok("import", file) }
    let exported = first.folder.appendingPathComponent("export.json").path
    await first.ok("export", "--out", exported)
    let second = Harness(now: "2026-12-01T12:00:00Z")
    await second.ok("import", exported)
    #expect(try await second.snapshot() == (try await first.snapshot()))
    for file in files {
      let again = await second.ok("import", file)
      #expect(again.contains(" 0 entries added,"), "\(file): \(again)")
      #expect(again.contains(" (0 new, "), "\(file): \(again)")
      #expect(!again.contains("journal day") || again.contains("(0 new, 0 added to, "), "\(file): \(again)")
    }
    #expect(try await second.snapshot() == (try await first.snapshot()))
  }
}
