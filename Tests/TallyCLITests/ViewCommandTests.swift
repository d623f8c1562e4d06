import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct GridCommandTests {
  @Test func aHabitsGridFitsEightyColumnsWithoutColourWhenPiped() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read", "--created", "2026-02-01")
    await tally.ok("mark", "Read", "2026-02-01..2026-02-10", "2026-03-07")
    await tally.ok("mark", "Read", "2026-02-11", "--skip")
    let out = await tally.ok("grid", "Read")
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "Read · daily · 38 weeks to 2026-03-08")
    #expect(lines.allSatisfy { $0.count <= 80 })
    #expect(!out.contains("\u{1B}"))
    #expect(lines[2].hasPrefix("Sun · · "))
    // The last six weeks, from the week of 1 February (the tracking start) to this one,
    // which holds only today (Sunday): later days are blank.
    #expect(lines[2].hasSuffix("· ■ ■ □ □ □ □"))
    #expect(lines[4].hasSuffix("· ■ ■ □ □ □"))  // Tuesdays: 3 and 10 Feb done
    #expect(lines[5].hasSuffix("· ■ × □ □ □"))  // Wednesdays: 4 done, 11 skipped
    #expect(lines[8].hasSuffix("· ■ □ □ □ ■"))  // Saturdays: 7 Feb and 7 March done
    #expect(lines[lines.count - 2] == "■ done  □ not done  × skipped  · before start")
  }

  @Test func colourOnlyOnATerminalAndNotWithNoColor() async throws {
    var tally = Harness()
    _ = try await tally.addHabit("Read", "--color", "#FF8000")
    await tally.ok("mark", "Read")
    tally.isTerminal = true
    let coloured = await tally.ok("grid", "Read", "--weeks", "2")
    #expect(coloured.contains("\u{1B}[38;2;255;128;0m■\u{1B}[0m"))
    tally.environment["NO_COLOR"] = "1"
    #expect(!(await tally.ok("grid", "Read", "--weeks", "2")).contains("\u{1B}"))
  }

  @Test func theActivityGridShowsLevels() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("A", "--created", "2026-03-01")
    _ = try await tally.addHabit("B", "--created", "2026-03-01")
    await tally.ok("mark", "A", "2026-03-01", "2026-03-02")
    await tally.ok("mark", "B", "2026-03-01")
    let out = await tally.ok("grid", "--weeks", "2")
    #expect(out == """
      All habits (2) · 2 weeks to 2026-03-08
          Mar
      Sun █ □
      Mon ▒
      Tue □
      Wed □
      Thu □
      Fri □
      Sat □

      less □ ░ ▒ ▓ █ more

      """)
    let json = try #require(try await tally.run("grid", "--weeks", "2", "--json").json() as? [String: Any])
    let weeks = try #require(json["weeks"] as? [[[String: Any]]])
    #expect(weeks.count == 2)
    #expect(weeks[0][1]["level"] as? Int == 2)
    #expect(weeks[0][1]["label"] as? String == "Monday 2 March, 1 of 2 habits done")
  }

  @Test func weeksOutOfRangeAreRefused() async throws {
    let tally = Harness()
    for weeks in ["0", "39"] {
      let run = await tally.run("grid", "--weeks", weeks)
      #expect(run.status == 64)
      #expect(run.stderr == "Error: The number of weeks must be from 1 to 38 (what fits 80 columns), not \(weeks).\n")
    }
  }
}

@Suite struct CalendarCommandTests {
  func withShows() async throws -> Harness {
    let tally = Harness()
    await tally.ok("settings")
    let store = try tally.store()
    let user = try await tally.user()
    let netflix = try Provider(id: 8, name: "Netflix", logoURL: URL(string: "https://img.example/n.png"))
    let max = try Provider(id: 1899, name: "Max")
    let watching = try Show(id: UUID(), title: "A", status: .watching, providers: ["US": [netflix], "DE": [netflix]])
    let other = try Show(id: UUID(), title: "B", status: .watching, providers: ["US": [max]])
    let paused = try Show(id: UUID(), title: "C", status: .paused, providers: ["US": [max]])
    for show in [watching, other, paused] { try await store.saveShow(show, for: user.id) }
    try await store.saveEpisodes([
      try Episode(showID: watching.id, season: 1, number: 1, title: "One", airDay: day("2026-03-06")),
      try Episode(showID: other.id, season: 1, number: 1, title: "Uno", airDay: day("2026-03-06")),
      try Episode(showID: paused.id, season: 1, number: 1, title: "Eins", airDay: day("2026-03-10")),
      try Episode(showID: watching.id, season: 1, number: 2, title: "Two", airDay: day("2026-04-02")),
    ], for: user.id)
    return tally
  }

  @Test func theMonthShowsWhatAirsOnWatchedShows() async throws {
    let tally = try await withShows()
    let out = await tally.ok("calendar")
    #expect(out == """
      March 2026 · US
       Sun   Mon   Tue   Wed   Thu   Fri   Sat
        1     2     3     4     5     6 *   7
      [ 8]    9    10    11    12    13    14
       15    16    17    18    19    20    21
       22    23    24    25    26    27    28
       29    30    31     ·     · *   ·     ·
        ·     ·     ·     ·     ·     ·     ·

      F 2026-03-06  Netflix $17.99, Max $18.49  TOTAL: $36.48

      """)
    let germany = await tally.ok("calendar", "2026-03", "--country", "de")
    #expect(germany.hasPrefix("March 2026 · DE\n"))
    // B streams on Max only in the US: in Germany it is named, without a price (issue 29).
    #expect(germany.contains("F 2026-03-06  Netflix 13,99 €, B (no provider in DE)  TOTAL: 13,99 €\n"))
  }

  @Test func jsonIsTheMonthView() async throws {
    let tally = try await withShows()
    let object = try #require(try await tally.run("calendar", "2026-04", "--json").json() as? [String: Any])
    #expect(object["month"] as? String == "2026-04")
    #expect(object["country"] as? String == "US")
    let cells = try #require(object["cells"] as? [[String: Any]])
    #expect(cells.count == 42)
    let april2 = try #require(cells.first { $0["day"] as? String == "2026-04-02" })
    #expect((april2["display"] as? [String: Any])?["mode"] as? String == "logo")
  }

  @Test func badMonthsAndCountriesAreRefused() async throws {
    let tally = Harness()
    let month = await tally.run("calendar", "2026-13")
    #expect(month.status == 64)
    #expect(month.stderr == "Error: The month must be a month written YYYY-MM like 2025-09, not '2026-13'.\n")
    let country = await tally.run("calendar", "--country", "USA")
    #expect(country.status == 64)
    #expect(country.stderr == "Error: The country must be a two-letter ISO 3166 country code like US or DE, not 'USA'.\n")
  }
}

@Suite struct RemindersCommandTests {
  @Test func listsTheNextRemindersSkippingDoneDays() async throws {
    let tally = Harness(now: "2026-03-08T12:00:00Z", timeZone: "America/New_York")
    _ = try await tally.addHabit("Read", "--reminder", "21:30")
    _ = try await tally.addHabit("Water", "--reminder", "08:00-20:00/6h")
    _ = try await tally.addHabit("Old", "--reminder", "09:00")
    await tally.ok("habit", "archive", "Old")
    await tally.ok("mark", "Read")
    // 12:00 UTC is 08:00 EDT (clocks went forward this morning): the 08:00 reminder has fired.
    let out = await tally.ok("reminders", "--days", "2")
    #expect(out == """
      S 2026-03-08  14:00  Water
      S 2026-03-08  20:00  Water
      M 2026-03-09  08:00  Water
      M 2026-03-09  14:00  Water
      M 2026-03-09  20:00  Water
      M 2026-03-09  21:30  Read

      """)
    let json = try #require(try await tally.run("reminders", "--days", "1", "--json").json() as? [[String: Any]])
    #expect(json.count == 2)
    #expect(Set(json[0].keys) == ["habitId", "habitName", "day", "time", "instant", "key"])
    #expect(json[0]["instant"] as? String == "2026-03-08T18:00:00.000Z")
    #expect(json[0]["time"] as? String == "14:00")
  }

  @Test func daysOutOfRangeAreRefused() async throws {
    let tally = Harness()
    let run = await tally.run("reminders", "--days", "0")
    #expect(run.status == 64)
    #expect(run.stderr == "Error: The number of days must be from 1 to 366, not 0.\n")
  }
}
