import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct TransferCommandTests {
  /// A user with something of every kind: habits (one archived, one weekly with a reminder),
  /// entries with notes and skips, journal, chat from both sides, shows with providers,
  /// episodes and edited prices.
  func filled() async throws -> Harness {
    let tally = Harness(timeZone: "Europe/Berlin")
    await tally.ok("settings", "--day-switch-hour", "3", "--first-weekday", "monday", "--language", "ja")
    _ = try await tally.addHabit("Read", "--icon", "📚", "--group", "Mind", "--created", "2026-01-01")
    _ = try await tally.addHabit("Run", "--weekly", "3", "--reminder", "07:00-19:00/6h", "--color", "#80FF0000")
    _ = try await tally.addHabit("Old")
    await tally.ok("mark", "Read", "2026-01-01..2026-03-08")
    await tally.ok("mark", "Read", "2026-02-01", "--skip", "--note", "ill, \"really\"\nin bed")
    await tally.ok("mark", "Run", "2026-03-02", "2026-03-04", "--note", "5 km")
    await tally.ok("mark", "Old", "2025-12-31")
    await tally.ok("habit", "archive", "Old")
    await tally.ok("pause", "Run", "--from", "2026-02-09", "--until", "2026-02-15")
    await tally.ok("journal", "2026-03-07", "Line one\n  indented line two\n")
    await tally.ok("--now", "2026-03-08T09:30:00.123Z", "chat", "hello")
    await tally.ok("--now", "2026-03-08T09:30:00.123Z", "chat", "same instant", "--assistant")
    let store = try tally.store()
    let user = try await tally.user()
    let show = try Show(
      id: UUID(), title: "Severance", status: .watching,
      providers: ["US": [try Provider(id: 350, name: "Apple TV Plus", logoURL: URL(string: "https://image.example/a.png"))]])
    try await store.saveShow(show, for: user.id)
    try await store.saveShow(try Show(id: UUID(), title: "Paused", status: .paused), for: user.id)
    try await store.saveEpisodes(
      [try Episode(showID: show.id, season: 2, number: 1, title: "Hello, Ms. Cobel", airDay: day("2026-03-06"))],
      for: user.id)
    try await store.setPrice(try Price(country: "US", providerID: 350, amount: Decimal(string: "12.99")!, currency: "USD"), for: user.id)
    try await store.removePrice(country: "DE", providerID: 8, for: user.id)
    return tally
  }

  @Test func jsonRoundTripIsIdentical() async throws {
    let source = try await filled()
    let first = await source.ok("export")
    let file = source.folder.appendingPathComponent("export.json").path
    try first.write(toFile: file, atomically: true, encoding: .utf8)
    let target = Harness()
    let imported = await target.ok("import", file)
    #expect(imported == "Imported into 'ada': 3 habits, 70 entries, 1 journal entry, 2 chat messages, 2 shows, 1 episode, 37 prices, 1 pause.\n")
    let second = await target.ok("export")
    #expect(second == first)
    #expect(try await target.snapshot() == source.snapshot())
    #expect(first.contains("\"amount\" : 12.99"))
    #expect(first.contains("\"sentAt\" : \"2026-03-08T09:30:00.123Z\""))
  }

  @Test func exportToAFileAndTheCSVShape() async throws {
    let tally = try await filled()
    let file = tally.folder.appendingPathComponent("entries.csv").path
    let out = await tally.ok("export", "--out", file)
    #expect(out == "Exported 'ada' to \(file): 3 habits, 70 entries, 1 journal entry, 2 chat messages, 2 shows.\n")
    let csv = try String(contentsOfFile: file, encoding: .utf8)
    let lines = csv.components(separatedBy: "\r\n")
    #expect(lines[0] == "habitId,habitName,day,status,note,amount")
    #expect(csv.contains(",Read,2026-02-01,skipped,\"ill, \"\"really\"\"\nin bed\",\r\n"))
    #expect(csv.contains(",Run,2026-03-02,done,5 km,\r\n"))
    #expect(lines.count == 70 + 2)
  }

  @Test func csvImportSetsDaysOnHabitsByIdOrNameAndAddsNewOnes() async throws {
    let source = try await filled()
    let file = source.folder.appendingPathComponent("entries.csv").path
    await source.ok("export", "--format", "csv", "--out", file)
    let target = Harness(timeZone: "Europe/Berlin")
    let readID = try await target.addHabit("Read")
    #expect(
      await target.ok("import", file).hasPrefix(
        "Imported the CSV file into 'ada': 3 habits (2 new, 1 already here), 70 entries added, "))
    let entries = try await target.entries(of: readID)
    #expect(entries.count == 67)
    #expect(entries.first { $0.day == day("2026-02-01") } == HabitEntry(day: day("2026-02-01"), status: .skipped, note: "ill, \"really\"\nin bed"))
    let habits = try await target.store().habits(for: try await target.user().id, includingArchived: true)
    #expect(habits.map(\.name) == ["Read", "Run", "Old"])
    #expect(habits[2].createdDay == day("2025-12-31"))
    // Importing again changes nothing: a day with an entry is never replaced.
    let before = try await target.snapshot()
    await target.ok("import", file, "--format", "csv")
    #expect(try await target.snapshot() == before)
  }

  @Test func jsonImportRefusesAUserWithDataAndChangesNothing() async throws {
    let source = try await filled()
    let file = source.folder.appendingPathComponent("export.json").path
    await source.ok("export", "--out", file)
    let before = try await source.snapshot()
    let run = await source.run("import", file)
    #expect(run.status == 1)
    #expect(run.stderr == "Error: The user 'ada' already has 3 habits, 1 journal entry, 2 chat messages and 2 shows; a JSON import fills an empty user only, so import into a new database (--db) or another user.\n")
    #expect(try await source.snapshot() == before)
  }

  @Test func jsonImportIntoAnEmptyExistingUserReplacesSettingsAndPrices() async throws {
    let source = try await filled()
    let file = source.folder.appendingPathComponent("export.json").path
    await source.ok("export", "--out", file)
    let target = Harness()
    await target.ok("settings")
    await target.ok("import", file)
    #expect(try await target.user().settings == source.user().settings)
    #expect(await target.ok("export") == source.ok("export").replacingOccurrences(
      of: try await source.user().id.storeText, with: try await target.user().id.storeText))
  }

  @Test(arguments: [
    ("{", 1, "is not a Tally export: it is not JSON."),
    ("{\"format\": \"tally-export\"}", 1, "is not a Tally export: the top level has no 'version'."),
    ("[]", 1, "is not a Tally export: the top level: Expected to decode Dictionary<String, Any> but found an array instead."),
  ])
  func malformedFilesAreRefused(text: String, status: Int32, message: String) async throws {
    let tally = Harness()
    let file = tally.folder.appendingPathComponent("bad.json").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let run = await tally.run("import", file)
    #expect(run.status == status)
    #expect(run.stderr.hasPrefix("Error: The file \(file) "))
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(try await tally.store().users().isEmpty)
  }

  @Test func aRuleBrokenDeepInTheFileChangesNothing() async throws {
    let source = try await filled()
    var text = await source.ok("export")
    text = text.replacingOccurrences(of: "\"color\" : \"#80FF0000\"", with: "\"color\" : \"#GG0000\"")
    let file = source.folder.appendingPathComponent("bad.json").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let target = Harness()
    let run = await target.run("import", file)
    #expect(run.status == 1)
    #expect(run.stderr == "Error: The file \(file) is not a Tally export: habits[1].habit.color: color must be a hex colour like #RGB, #RRGGBB or #AARRGGBB, not '#GG0000'.\n")
    #expect(try await target.store().users().isEmpty)
  }

  @Test func anImportIntoASecondUserGetsNewIdsWhereTheFirstHoldsThem() async throws {
    let source = try await filled()
    let file = source.folder.appendingPathComponent("export.json").path
    await source.ok("export", "--out", file)
    // ada already has every id in the file; eve is empty.
    let target = Harness()
    await target.ok("import", file)
    let store = try target.store()
    let eve = try await store.createUser(User(id: UUID(), name: "eve", settings: UserSettings(timeZone: "UTC")))
    let adas = try await store.habits(for: try await target.user().id, includingArchived: true)
    let run = await target.run("--user", "eve", "import", file)
    #expect(run.status == 0, "\(run.stderr)")
    let eves = try await store.habits(for: eve.id, includingArchived: true)
    #expect(eves.map(\.name) == adas.map(\.name))
    #expect(Set(eves.map(\.id)).isDisjoint(with: adas.map(\.id)))
  }

  @Test func anEpisodeOfAShowTheFileDoesNotListIsRefusedBeforeAnyWrite() async throws {
    let source = try await filled()
    let show = try await source.store().shows(for: try await source.user().id).first { $0.title == "Severance" }!
    let missing = UUID()
    let text = await source.ok("export").replacingOccurrences(
      of: "\"showId\" : \"\(show.id.storeText)\"", with: "\"showId\" : \"\(missing.storeText)\"")
    let target = Harness()
    let file = target.folder.appendingPathComponent("broken.json").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let run = await target.run("import", file)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "Error: The file \(file) cannot be imported: The episodes[0] (S2E1) names the show \(missing.storeText), "
        + "which is not among the shows.\n")
    #expect(try await target.store().users().isEmpty)
  }

  @Test func anUnreadableFileIsNamed() async throws {
    let tally = Harness()
    let missing = tally.folder.appendingPathComponent("missing.json").path
    let run = await tally.run("import", missing)
    #expect(run.status == 74)
    #expect(run.stderr == "Error: The file \(missing) could not be read: there is no such file.\n")
    let folder = await tally.run("import", tally.folder.path)
    #expect(folder.status == 74)
    #expect(
      folder.stderr
        == "Error: The file \(tally.folder.path) could not be read: it is a folder, and not a Day One Classic journal (it holds no .doentry files).\n")
  }

  @Test func csvErrorsNameTheLineAndChangeNothing() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    let before = try await tally.snapshot()
    for (csv, message) in [
      ("habitName,day,status\nRead,2026-03-01,done\nRead,2026-03-32,done\n", "Error: Line 3 of the CSV file: the day '2026-03-32' is not written YYYY-MM-DD. Nothing was imported.\n"),
      ("habitName,day,status\nRead,2026-03-01,maybe\n", "Error: Line 2 of the CSV file: the status 'maybe' is not done, skipped or noted. Nothing was imported.\n"),
      ("name,when\n", "Error: Line 1 of the CSV file: the header must name the columns habitName, day and status (habitId and note are optional), not 'name,when'. Nothing was imported.\n"),
      ("habitName,day,status\nRead,2026-03-09,done\n", "Error: Line 2 of the CSV file: the day 2026-03-09 is after today (2026-03-08); only days up to today can be marked. Nothing was imported.\n"),
    ] {
      let file = tally.folder.appendingPathComponent("in.csv").path
      try csv.write(toFile: file, atomically: true, encoding: .utf8)
      let run = await tally.run("import", file, "--format", "csv")
      #expect(run.status == 1)
      #expect(run.stderr == message)
      #expect(try await tally.snapshot() == before)
    }
    // Without --format a header naming no habitName is no kind of file Tally knows.
    let file = tally.folder.appendingPathComponent("unknown.csv").path
    try "name,when\n".write(toFile: file, atomically: true, encoding: .utf8)
    let unknown = await tally.run("import", file)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("(line 1: the header 'name,when' is not one of a CSV export Tally reads)"))
    #expect(try await tally.snapshot() == before)
  }

  @Test func backupWritesAnOpenableCopyAndNeverReplacesAFile() async throws {
    let tally = try await filled()
    let copy = tally.folder.appendingPathComponent("copy.sqlite").path
    let out = await tally.ok("backup", copy)
    #expect(out.hasPrefix("Backed up \(tally.path) to \(copy) ("))
    var fromCopy = tally
    fromCopy.environment["TALLY_DB"] = copy
    #expect(await fromCopy.ok("export") == tally.ok("export"))
    let again = await tally.run("backup", copy)
    #expect(again.status == 1)
    #expect(again.stderr == "Error: The file \(copy) already exists; a backup never replaces a file, so name a new one.\n")
  }

  @Test func anUnwritableExportIsNamed() async throws {
    let tally = Harness()
    let out = tally.folder.appendingPathComponent("no/such/folder/x.json").path
    let run = await tally.run("export", "--out", out)
    #expect(run.status == 74)
    #expect(run.stderr.hasPrefix("Error: The file \(out) could not be written: "))
  }
}
