import Foundation
import TallyCore
import TallyLocalization
import TallyStore
import Testing

@Suite struct SettingsCommandTests {
  @Test func firstUseCreatesOneUserFromTheEnvironment() async throws {
    var tally = Harness(timeZone: "America/New_York")
    tally.environment["LANG"] = "fr_FR.UTF-8"
    let run = await tally.run("settings", "--json")
    #expect(run.status == 0)
    let object = try #require(try run.json() as? [String: Any])
    #expect(object["timeZone"] as? String == "America/New_York")
    #expect(object["locale"] as? String == "fr_FR")
    #expect(object["daySwitchHour"] as? Int == 0)
    #expect(Set(object.keys) == ["timeZone", "daySwitchHour", "firstWeekday", "locale", "showDatePickerGrid", "showGridDates"])
    let users = try await tally.store().users()
    #expect(users.map(\.name) == ["ada"])
    #expect(try await tally.store().priceTable(for: users[0].id) == PriceTable.defaults)
  }

  @Test func changesAreStoredAndShown() async throws {
    let tally = Harness()
    let out = await tally.ok(
      "settings", "--time-zone", "Europe/Berlin", "--day-switch-hour", "4", "--first-weekday", "Monday",
      "--grid-dates", "on")
    #expect(out.contains("time zone         Europe/Berlin\n"))
    #expect(out.contains("first weekday     monday\n"))
    let settings = try await tally.user().settings
    #expect(settings.timeZone == "Europe/Berlin")
    #expect(settings.daySwitchHour == 4)
    #expect(settings.firstWeekday == .monday)
    #expect(settings.showGridDates)
    #expect(settings.language == nil)
    #expect(out.contains("language          browser\n"))

    #expect(await tally.ok("settings", "--language", "pt-BR").contains("language          pt-BR\n"))
    #expect(try await tally.user().settings.language == .brazilianPortuguese)
    await tally.ok("settings", "--language", "browser")
    #expect(try await tally.user().settings.language == nil)
  }

  @Test(arguments: [
    (["settings", "--time-zone", "Mars/Olympus"], "Error: The timeZone must be an IANA time zone like Europe/Berlin, not 'Mars/Olympus'."),
    (["settings", "--day-switch-hour", "7"], "Error: The daySwitchHour must be a whole hour from 0 to 6, not 7."),
    (["settings", "--locale", "xx_YY"], "Error: The locale must be a locale like en_US or fr_FR, not 'xx_YY'."),
    (
      ["settings", "--language", "pt"],
      "Error: The language must be one of en, zh-Hans, es, ar, pt-BR, id, fr, ja, ru, de, ko, tr, it, pl, nl, uk; not 'pt'."
    ),
  ])
  func badSettingsAreRefused(arguments: [String], message: String) async throws {
    let tally = Harness()
    await tally.ok("settings")
    let before = try await tally.snapshot()
    let run = await tally.run(arguments)
    #expect(run.status == 64)
    #expect(run.stderr == message + "\n")
    #expect(try await tally.snapshot() == before)
  }

  @Test func theUserIsChosenWithUserWhenThereAreSeveral() async throws {
    let tally = Harness()
    await tally.ok("--user", "bob", "settings")
    // A second user, as the server would make one.
    let store = try tally.store()
    _ = try await store.createUser(try User(id: UUID(), name: "cy", settings: UserSettings(timeZone: "UTC")))
    let ambiguous = await tally.run("habit", "list")
    #expect(ambiguous.status == 64)
    #expect(ambiguous.stderr == "Error: The database \(tally.path) has 2 users ('bob' and 'cy'): choose one with --user.\n")
    _ = await tally.ok("--user", "cy", "habit", "add", "Read")
    let unknown = await tally.run("--user", "dee", "habit", "list")
    #expect(unknown.status == 1)
    #expect(unknown.stderr == "Error: There is no user named 'dee' in \(tally.path); its users are 'bob' and 'cy'.\n")
    let bobs = await tally.ok("--user", "bob", "habit", "list", "--json")
    #expect(bobs == "[\n\n]\n")
  }

  @Test func dbOptionWinsOverTallyDB() async throws {
    let tally = Harness()
    let other = tally.folder.appendingPathComponent("other.sqlite").path
    await tally.ok("--db", other, "habit", "add", "Read")
    await tally.ok("habit", "list", "--db", other)
    #expect(FileManager.default.fileExists(atPath: other))
    #expect(!FileManager.default.fileExists(atPath: tally.path))
  }

  @Test func helpReadsWellAndGoesToStandardOutput() async throws {
    let tally = Harness()
    let root = await tally.run("--help")
    #expect(root.status == 0)
    #expect(root.stdout.contains("USAGE: tally [--db <path>] [--adopt-empty-db] [--user <name>] [--now <instant>] <subcommand>"))
    let mark = await tally.run("help", "mark")
    #expect(mark.stdout.contains("Set days of a habit to done"))
    let completion = await tally.run("--generate-completion-script", "bash")
    #expect(completion.status == 0)
    #expect(completion.stdout.contains("tally"))
    #expect(!FileManager.default.fileExists(atPath: tally.path))
  }

  @Test func anUnknownOptionSaysWhereHelpIs() async throws {
    let tally = Harness()
    let run = await tally.run("habit", "list", "--bogus")
    #expect(run.status == 64)
    #expect(run.stderr == "Error: Unknown option '--bogus'\nSee 'tally habit list --help' for more information.\n")
  }
}

@Suite struct DatabaseErrorTests {
  @Test func aFileThatIsNotADatabaseIsNamedAndLeftAlone() async throws {
    let tally = Harness()
    let notes = tally.folder.appendingPathComponent("notes.txt").path
    try "shopping list".write(toFile: notes, atomically: true, encoding: .utf8)
    let run = await tally.run("--db", notes, "habit", "list")
    #expect(run.status == 74)
    #expect(run.stderr.hasPrefix("Error: The database \(notes) could not be opened: "))
    #expect(run.stderr.hasSuffix("It was left untouched.\n"))
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "shopping list")
  }

  @Test func aPostgresURLIsRefusedAsTheFileNotMadeIntoOne() async throws {
    var tally = Harness()
    let url = "postgres://tally:secret@127.0.0.1:5432/tally"
    let given = await tally.run("--db", url, "habit", "add", "Read")
    #expect(given.status == 64)
    #expect(given.stderr.hasPrefix("Error: The --db must name a SQLite file, not a PostgreSQL URL: "))
    #expect(!given.stderr.contains("secret"))
    tally.environment["TALLY_DB"] = "postgresql://tally@/tally?host=/run/postgresql"
    let inherited = await tally.run("habit", "list")
    #expect(inherited.status == 64)
    #expect(inherited.stderr.hasPrefix("Error: The TALLY_DB must name a SQLite file, not a PostgreSQL URL: "))
    let made = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)
    #expect(!made.contains { $0.hasPrefix("postgres") })
  }

  @Test func noPlaceForTheDatabaseIsExplained() async throws {
    var tally = Harness()
    tally.environment = ["TALLY_NOW": Harness.defaultNow]
    let run = await tally.run("habit", "list")
    #expect(run.status == 74)
    #expect(run.stderr == "Error: There is no place for the database: set TALLY_DB to a file path, or set HOME or XDG_DATA_HOME.\n")
  }
}
