import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTMDB
import Testing

private let sonarrFeed = [
  "BEGIN:VCALENDAR", "VERSION:2.0",
  "BEGIN:VEVENT", "UID:1", "DTSTART:20260310T020000Z", "SUMMARY:Severance - 2x01 - Hello\\, Ms. Cobel", "END:VEVENT",
  "BEGIN:VEVENT", "UID:2", "DTSTART;VALUE=DATE:20260317", "SUMMARY:Severance - 2x02 - Goodbye", "END:VEVENT",
  "BEGIN:VEVENT", "UID:3", "DTSTART;VALUE=DATE:20260318", "SUMMARY:Dentist", "END:VEVENT",
  "END:VCALENDAR",
].joined(separator: "\r\n")

@Suite struct AiringRouteTests {
  @Test func searchAnswersWithResultsAndTheAttribution() async throws {
    try await TestServer(showSource: FakeShowSource()).test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.get, "/api/v1/tmdb/search?query=thrones", headers: owner)
      #expect(response.status == .ok)
      response.expectSchema("ShowSearch")
      #expect((response.object["results"] as? [[String: Any]])?.first?["tmdbId"] as? Int == 1399)
      #expect(response.object["attribution"] as? String == TMDBAttribution.text)
      let blank = try await client.send(.get, "/api/v1/tmdb/search?query=%20", headers: owner)
      #expect(blank.status == .badRequest)
      #expect(blank.object["field"] as? String == "query")
    }
  }

  @Test func withoutAnAPIKeyTheTMDBRoutesSaySo() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let search = try await client.send(.get, "/api/v1/tmdb/search?query=thrones", headers: owner)
      #expect(search.status == .conflict)
      #expect(search.detail == "This server has no TMDB API key: start it with --tmdb-api-key or TALLY_TMDB_API_KEY.")
      #expect(try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 1399], headers: owner).status == .conflict)
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.isEmpty)
    }
  }

  @Test func addingFromTMDBPutsTheShowOnTheCalendarAndAgainUpdatesIt() async throws {
    try await TestServer(showSource: FakeShowSource()).test { client in
      let owner = try await client.setUpOwner()
      let before = try await client.send(.get, "/api/v1/calendar/2026-03", headers: owner)
      #expect(before.object["attribution"] == nil)

      let added = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 1399], headers: owner)
      #expect(added.status == .created)
      added.expectSchema("ShowSync")
      #expect(added.object["episodesSaved"] as? Int == 1)
      #expect(added.object["episodesWithoutDate"] as? Int == 1)
      let show = try #require(added.object["show"] as? [String: Any])
      #expect(show["tmdbId"] as? Int == 1399)
      let id = try #require(show["id"] as? String)

      // The cached month is dropped by the write: the new episode shows at once.
      let month = try await client.send(.get, "/api/v1/calendar/2026-03", headers: owner)
      month.expectSchema("MonthView")
      #expect(month.object["attribution"] as? String == TMDBAttribution.text)
      let tenth = (month.object["cells"] as? [[String: Any]])?.first { $0["day"] as? String == "2026-03-10" }
      #expect((tenth?["providers"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Max"])

      let again = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 1399, "status": "paused"], headers: owner)
      #expect(again.status == .ok)
      #expect((again.object["show"] as? [String: Any])?["id"] as? String == id)
      #expect((again.object["show"] as? [String: Any])?["status"] as? String == "paused")
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.count == 1)

      let refreshed = try await client.send(.post, "/api/v1/shows/\(id)/refresh", headers: owner)
      #expect(refreshed.status == .ok)
      refreshed.expectSchema("ShowSync")
    }
  }

  @Test func tmdbFailuresAreProblemsThatChangeNothing() async throws {
    let source = FakeShowSource()
    try await TestServer(showSource: source).test { client in
      let owner = try await client.setUpOwner()
      let unknown = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 42], headers: owner)
      #expect(unknown.status == .notFound)
      #expect(unknown.detail == "TMDB has no show with id 42.")
      source.failing.withLock { $0 = true }
      let refused = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 1399], headers: owner)
      #expect(refused.status == .badGateway)
      #expect(refused.detail.contains("refused the API key") == true)
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.isEmpty)
      let bad = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 0], headers: owner)
      #expect(bad.status == .unprocessableContent)
      #expect(bad.object["field"] as? String == "tmdbId")
    }
  }

  @Test func refreshingAHandMadeShowIsAConflict() async throws {
    try await TestServer(showSource: FakeShowSource()).test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Home Movies", headers: owner)
      let response = try await client.send(.post, "/api/v1/shows/\(id)/refresh", headers: owner)
      #expect(response.status == .conflict)
      #expect(response.detail.contains("was not added from TMDB") == true)
    }
  }

  @Test func aFeedImportsOnTheUsersDaysAndAgainUpdatesRatherThanDuplicates() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let body: [String: Any] = [
        "calendar": sonarrFeed, "providers": ["us": [["id": 8, "name": "Netflix"]]], "timeZone": "America/New_York",
      ]
      let first = try await client.send(.post, "/api/v1/episodes/import", json: body, headers: owner)
      #expect(first.status == .ok)
      first.expectSchema("FeedImportReport")
      #expect(first.object["showsAdded"] as? [String] == ["Severance"])
      #expect(first.object["episodesSaved"] as? Int == 2)
      #expect(first.object["skipped"] as? [String] == ["Dentist"])
      let shows = try await client.send(.get, "/api/v1/shows", headers: owner).array
      let id = try #require(shows.first?["id"] as? String)
      let episodes = try await client.send(.get, "/api/v1/shows/\(id)/episodes", headers: owner).array
      // 02:00 UTC on the 10th is the evening of the 9th in New York.
      #expect(episodes.map { $0["airDay"] as? String } == ["2026-03-09", "2026-03-17"])
      #expect(episodes.map { $0["title"] as? String } == ["Hello, Ms. Cobel", "Goodbye"])

      // Without a zone the user's (UTC here) decides; the same episodes are updated, not added.
      let second = try await client.send(.post, "/api/v1/episodes/import", json: ["calendar": sonarrFeed], headers: owner)
      #expect(second.object["showsAdded"] as? [String] == [])
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.count == 1)
      let utc = try await client.send(.get, "/api/v1/shows/\(id)/episodes", headers: owner).array
      #expect(utc.map { $0["airDay"] as? String } == ["2026-03-10", "2026-03-17"])

      let berlin = try await client.send(
        .post, "/api/v1/episodes/import", json: ["calendar": sonarrFeed, "timeZone": "Europe/Berlin"], headers: owner)
      #expect(berlin.status == .ok)
      let moved = try await client.send(.get, "/api/v1/shows/\(id)/episodes", headers: owner).array
      #expect(moved.map { $0["airDay"] as? String } == ["2026-03-10", "2026-03-17"])
    }
  }

  static let badImports: [(body: String, field: String)] = [
    (#"{"calendar": "not a calendar"}"#, "calendar"),
    (#"{"calendar": "BEGIN:VCALENDAR\nEND:VCALENDAR", "timeZone": "Mars/Olympus"}"#, "timeZone"),
    (#"{"calendar": "BEGIN:VCALENDAR\nEND:VCALENDAR", "providers": {"USA": [{"id": 8, "name": "Netflix"}]}}"#, "providers"),
    (#"{"calendar": "BEGIN:VCALENDAR\nEND:VCALENDAR", "extra": 1}"#, "extra"),
  ]

  @Test(arguments: 0..<4)
  func aBadImportIsRefusedAndChangesNothing(index: Int) async throws {
    let (body, field) = Self.badImports[index]
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.post, "/api/v1/episodes/import", json: body, headers: owner)
      #expect([.unprocessableContent, .badRequest].contains(response.status), "\(body)")
      #expect(response.object["field"] as? String == field)
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.isEmpty)
    }
  }

  @Test func anotherUserCannotRefreshTheFirstUsersShow() async throws {
    try await TestServer(showSource: FakeShowSource()).test { client in
      let owner = try await client.setUpOwner()
      let added = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 1399], headers: owner)
      let id = try #require((added.object["show"] as? [String: Any])?["id"] as? String)
      let show = try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).text
      let bob = try await client.memberSession(owner: owner)
      #expect(try await client.send(.post, "/api/v1/shows/\(id)/refresh", headers: bob).status == .notFound)
      // Bob adding the same TMDB show gets his own copy; the owner's is untouched.
      let bobs = try await client.send(.post, "/api/v1/shows/tmdb", json: ["tmdbId": 1399], headers: bob)
      #expect(bobs.status == .created)
      #expect((bobs.object["show"] as? [String: Any])?["id"] as? String != id)
      _ = try await client.send(.post, "/api/v1/episodes/import", json: ["calendar": sonarrFeed], headers: bob)
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.count == 1)
      #expect(try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).text == show)
    }
  }

  @Test func signedOutTheAiringRoutesAreRefused() async throws {
    try await TestServer(showSource: FakeShowSource()).test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Andor", headers: owner)
      for (method, path) in [
        (HTTPRequest.Method.get, "/api/v1/tmdb/search?query=x"), (.post, "/api/v1/shows/tmdb"),
        (.post, "/api/v1/shows/\(id)/refresh"), (.post, "/api/v1/episodes/import"),
      ] {
        let response = try await client.send(method, path, json: method == .post ? ["tmdbId": 1399] : nil)
        #expect(response.status == .unauthorized, "\(method) \(path)")
      }
    }
  }
}
