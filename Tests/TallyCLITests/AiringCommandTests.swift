import Foundation
import TallyCore
import TallyStore
import TallyTMDB
import Testing

/// One show, 1399, with an episode on 10 March 2026 streaming on Max in the US.
struct OneShowSource: ShowSource {
  func searchShows(_ query: String) async throws -> [ShowSearchResult] {
    [ShowSearchResult(tmdbId: 1399, name: "Game of Thrones", firstAirDay: Day("2011-04-17"), overview: "")]
  }

  func show(_ tmdbID: Int) async throws -> ShowDetails {
    guard tmdbID == 1399 else { throw TMDBError.notFound("show with id \(tmdbID)") }
    return ShowDetails(tmdbID: 1399, name: "Game of Thrones", seasonNumbers: [1])
  }

  func episodes(of tmdbID: Int, season: Int) async throws -> [SourceEpisode] {
    [SourceEpisode(season: 1, number: 1, title: "Winter Is Coming", airDay: Day("2026-03-10"))]
  }

  func providers(of tmdbID: Int) async throws -> [String: [Provider]] {
    ["US": [try Provider(id: 1899, name: "Max")], "GB": [try Provider(id: 39, name: "NOW")]]
  }
}

@Suite struct AiringCommandTests {
  static let feed = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//sonarr.tv//Sonarr//EN",
    "BEGIN:VEVENT", "UID:a", "DTSTART:20260310T020000Z", "DTEND:20260310T030000Z",
    "SUMMARY:Severance - 2x01 - Hello\\, Ms. Cobel", "END:VEVENT",
    "BEGIN:VEVENT", "UID:b", "DTSTART;VALUE=DATE:20260317",
    "SUMMARY:Severance - 2x02 - Goodbye, Mrs. Selvig and the Very Long Title That Sonarr Fo",
    " lds", "END:VEVENT",
    "BEGIN:VEVENT", "UID:c", "DTSTART;VALUE=DATE:20260318", "SUMMARY:Dentist", "END:VEVENT",
    "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  func writeFeed(_ tally: Harness) throws -> String {
    let path = tally.folder.appendingPathComponent("sonarr.ics").path
    try Self.feed.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func importingAFeedFillsTheCalendarOnTheUsersDaysAndAgainDuplicatesNothing() async throws {
    let tally = Harness(timeZone: "America/New_York")
    let path = try writeFeed(tally)
    let out = await tally.ok("episodes", "import", path, "--provider", "US:8:Netflix")
    #expect(out == "Imported 2 episodes; new shows: Severance.\nLeft out 1 event naming no episode: 'Dentist'\n")
    let again = await tally.ok("episodes", "import", path, "--provider", "us:8:Netflix", "--json")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(again.utf8)) as? [String: Any])
    #expect(report["showsAdded"] as? [String] == [])
    #expect(report["episodesSaved"] as? Int == 2)

    let episodes = await tally.ok("episodes", "list", "severance")
    #expect(episodes == """
      EPISODE  AIRS        TITLE
      2x01     2026-03-09  Hello, Ms. Cobel
      2x02     2026-03-17  Goodbye, Mrs. Selvig and the Very Long Title That Sonarr Folds

      """)
    let calendar = await tally.ok("calendar", "2026-03", "--country", "US")
    #expect(calendar.contains("M 2026-03-09  Netflix $17.99  TOTAL: $17.99\n"))
    #expect(!calendar.contains("TMDB"))
  }

  @Test func aBadFeedIsRefusedAndChangesNothing() async throws {
    let tally = Harness()
    let path = tally.folder.appendingPathComponent("bad.ics").path
    try "<html>404</html>".write(toFile: path, atomically: true, encoding: .utf8)
    let bad = await tally.run("episodes", "import", path)
    #expect(bad.status == 1)
    #expect(bad.stderr == "Error: The calendar must be an iCalendar file starting with BEGIN:VCALENDAR.\n")
    let missing = await tally.run("episodes", "import", tally.folder.appendingPathComponent("none.ics").path)
    #expect(missing.stderr.contains("There is no file"))
    let provider = await tally.run("episodes", "import", try writeFeed(tally), "--provider", "Netflix")
    #expect(provider.status == 64)
    #expect(provider.stderr == "Error: A --provider is COUNTRY:ID:NAME like US:8:Netflix (ids are TMDB's), not 'Netflix'.\n")
    #expect(await tally.ok("show", "list") == "No shows yet: add one with 'tally show add TITLE' or 'tally show add --tmdb ID'.\n")
  }

  @Test func searchAddAndRefreshFromTMDBSayWhereTheDataCameFrom() async throws {
    var tally = Harness()
    tally.showSource = OneShowSource()
    let search = await tally.ok("show", "search", "thrones")
    #expect(search == """
      TMDB  NAME             FIRST AIRED
      1399  Game of Thrones  2011-04-17
      \(TMDBAttribution.text)

      """)
    let added = await tally.ok("show", "add", "--tmdb", "1399")
    #expect(added.hasPrefix("Added Game of Thrones ("))
    #expect(added.hasSuffix("): 1 episode with an air date.\n\(TMDBAttribution.text)\n"))
    let again = await tally.ok("show", "add", "--tmdb", "1399", "--status", "paused")
    #expect(again.hasPrefix("Updated Game of Thrones ("))
    let shows = try #require(try await tally.run("show", "list", "--json").json() as? [[String: Any]])
    #expect(shows.count == 1)
    #expect(shows[0]["tmdbId"] as? Int == 1399)
    #expect(shows[0]["status"] as? String == "paused")
    #expect(await tally.ok("show", "refresh") == "Game of Thrones: 1 episode with an air date.\n\(TMDBAttribution.text)\n")

    _ = await tally.ok("show", "add", "--tmdb", "1399", "--status", "watching")
    let calendar = await tally.ok("calendar", "2026-03", "--country", "gb")
    // NOW is priced in the shipped GB table, in pounds.
    #expect(calendar.contains("T 2026-03-10  NOW £9.99  TOTAL: £9.99\n"))
    #expect(calendar.hasSuffix("\n\(TMDBAttribution.text)\n"))

    let unknown = await tally.run("show", "add", "--tmdb", "42")
    #expect(unknown.status == 1)
    #expect(unknown.stderr == "Error: TMDB has no show with id 42.\n")
  }

  @Test func withoutAKeyTMDBCommandsSayHowToGiveOne() async throws {
    let tally = Harness()
    let result = await tally.run("show", "search", "thrones")
    #expect(result.status == 64)
    #expect(result.stderr == "Error: TMDB needs an API key: give --tmdb-api-key KEY or set TALLY_TMDB_API_KEY (free at themoviedb.org).\n")
  }

  @Test func showsEpisodesAndPricesByHand() async throws {
    let tally = Harness()
    _ = await tally.ok("show", "add", "Andor", "--provider", "US:337:Disney Plus")
    let duplicate = await tally.run("show", "add", "andor")
    #expect(duplicate.stderr == "Error: You already have a show called 'andor'.\n")
    #expect(await tally.ok("episodes", "add", "andor", "--season", "2", "--number", "1", "--air-day", "2026-03-11") == "Andor 2x1 airs 2026-03-11.\n")
    #expect(await tally.ok("prices", "set", "US", "337", "9.99", "usd") == "Provider 337 costs $9.99 in US.\n")
    #expect(await tally.ok("prices", "list", "--country", "us").contains("US            337   $9.99\n"))
    let calendar = await tally.ok("calendar", "2026-03", "--country", "US")
    #expect(calendar.contains("W 2026-03-11  Disney Plus $9.99  TOTAL: $9.99\n"))
    _ = await tally.ok("prices", "remove", "us", "337")
    let unpriced = await tally.ok("calendar", "2026-03", "--country", "US")
    #expect(unpriced.contains("W 2026-03-11  Disney Plus —  TOTAL: — (1 provider without a price left out)\n"))
    let badAmount = await tally.run("prices", "set", "US", "8", "ten", "USD")
    #expect(badAmount.status == 64)
    // Issue 29: a show with no provider (a broadcast show) still airs on its day, named.
    _ = await tally.ok("show", "add", "The Bake Off")
    _ = await tally.ok("episodes", "add", "the bake off", "--season", "1", "--number", "1", "--air-day", "2026-03-12")
    let broadcast = await tally.ok("calendar", "2026-03", "--country", "US")
    #expect(broadcast.contains("T 2026-03-12  The Bake Off (no provider in US)\n"), "\(broadcast)")
    #expect(await tally.ok("show", "delete", "andor") == "Deleted Andor.\n")
    #expect(await tally.ok("show", "delete", "the bake off") == "Deleted The Bake Off.\n")
    #expect(try (await tally.run("show", "list", "--json").json() as? [Any])?.isEmpty == true)
  }
}
