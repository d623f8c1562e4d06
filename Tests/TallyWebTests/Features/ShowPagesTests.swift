import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// Shows, providers, episodes and prices managed from the web app.
@Suite struct ShowPagesTests {
  @Test func aShowIsTypedInGivenAServiceAndAnEpisodeAndReachesTheCalendar() async throws {
    let server = try TestServer()
    try await server.test { client in
      let ada = try await client.setUpOwner()
      let empty = try await client.page("/shows", headers: ada)
      #expect(empty.contains("No shows yet"))
      #expect(empty.contains("This server has no TMDB key"))
      #expect(empty.contains("<label for=\"show-title\">Title</label>"))

      let added = try await client.post("/shows", form: [("title", "Severance"), ("status", "watching")], headers: ada)
      #expect(added.status == .seeOther)
      let path = try #require(added.location)
      let twice = try await client.post("/shows", form: [("title", "severance")], headers: ada)
      #expect(twice.status == .conflict)
      #expect(twice.text.contains("You already have a show called &#39;severance&#39;.") || twice.text.contains("You already have a show called 'severance'."))
      // Renaming another show to it is refused the same way (issue 29: one rule everywhere).
      let other = try #require(try await client.post("/shows", form: [("title", "Andor"), ("status", "watching")], headers: ada).location)
      let renamed = try await client.post(other, form: [("title", "SEVERANCE"), ("status", "watching")], headers: ada)
      #expect(renamed.status == .conflict)
      #expect(try await client.post("\(other)/delete", form: [("confirm", "yes")], headers: ada).location == "/shows")

      let badCountry = try await client.post("\(path)/providers", form: [("country", "Narnia"), ("provider", "1899")], headers: ada)
      #expect(badCountry.status == .unprocessableContent)
      #expect(badCountry.text.contains("country must be a two-letter code"))
      #expect(try await client.post("\(path)/providers", form: [("country", "us"), ("provider", "1899")], headers: ada).status == .seeOther)
      let episode = try await client.post(
        "\(path)/episodes", form: [("season", "3"), ("number", "1"), ("title", "Hello Again"), ("airDay", "2026-03-10")], headers: ada)
      #expect(episode.status == .seeOther)
      let badDay = try await client.post(
        "\(path)/episodes", form: [("season", "3"), ("number", "2"), ("title", "x"), ("airDay", "soon")], headers: ada)
      #expect(badDay.status == .unprocessableContent)

      let page = try await client.page(path, headers: ada)
      #expect(page.contains("US · Max"))
      #expect(page.contains("<td>S03E01</td><td>Hello Again</td>"))
      let sheet = try await client.page("/calendar/2026-03?country=US&day=2026-03-10", headers: ada)
      #expect(sheet.contains("<li>Severance · S03E01 Hello Again</li>"))

      // Paused shows leave the calendar.
      #expect(try await client.post(path, form: [("title", "Severance"), ("status", "paused")], headers: ada).status == .seeOther)
      #expect(!(try await client.page("/calendar/2026-03?country=US", headers: ada)).contains("day=2026-03-10"))
      let wrongStatus = try await client.post(path, form: [("title", "Severance"), ("status", "binging")], headers: ada)
      #expect(wrongStatus.status == .unprocessableContent)

      #expect(try await client.post("\(path)/providers/remove", form: [("country", "US"), ("providerId", "1899")], headers: ada).status == .seeOther)
      #expect(try await client.page(path, headers: ada).contains("No services yet"))
      #expect(try await client.post("\(path)/delete", form: [], headers: ada).status == .unprocessableContent)
      #expect(try await client.post("\(path)/delete", form: [("confirm", "yes")], headers: ada).location == "/shows")
      #expect(try await client.page("/shows", headers: ada).contains("No shows yet"))
    }
  }

  @Test func anotherUsersShowIsNotFoundAndUntouched() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let path = try #require(try await client.post("/shows", form: [("title", "Severance")], headers: ada).location)
      let bob = try await client.addMember("bob", owner: ada)
      _ = try await client.page(path, headers: bob, status: .notFound)
      #expect(try await client.post(path, form: [("title", "Mine"), ("status", "paused")], headers: bob).status == .notFound)
      #expect(try await client.post("\(path)/delete", form: [("confirm", "yes")], headers: bob).status == .notFound)
      #expect(try await client.page(path, headers: ada).contains("Severance"))
    }
  }

  @Test func tmdbSearchResultsAreAddedWithTheirEpisodes() async throws {
    try await TestServer(showSource: FakeShowSource()).test { client in
      let ada = try await client.setUpOwner()
      let found = try await client.page("/shows?q=thrones", headers: ada)
      #expect(found.contains("Game of Thrones</strong> (2011)"))
      #expect(found.contains("name=\"tmdbId\" value=\"1399\""))
      let added = try await client.post("/shows/tmdb", form: [("tmdbId", "1399")], headers: ada)
      let path = try #require(added.location)
      let page = try await client.page(path, headers: ada)
      #expect(page.contains("Winter Is Coming"))
      #expect(page.contains("US · Max"))
      #expect(try await client.post("/shows/tmdb", form: [("tmdbId", "x")], headers: ada).status == .unprocessableContent)
    }
  }

  @Test func aSonarrFeedIsImportedWithAServiceForItsNewShows() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let feed = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:1\r
        DTSTART:20260310T020000Z\r
        SUMMARY:Severance - 3x01 - Hello Again\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
      let imported = try await client.post(
        "/shows/feed", form: [("calendar", feed), ("country", "US"), ("provider", "1899")], headers: ada)
      #expect(imported.status == .seeOther)
      let list = try await client.page(try #require(imported.location), headers: ada)
      #expect(list.contains("Imported 1 episode and 1 new show."))
      #expect(list.contains(">Severance</a>"))
      #expect(list.contains("US: Max"))
      let broken = try await client.post("/shows/feed", form: [("calendar", "not a calendar")], headers: ada)
      #expect(broken.status == .unprocessableContent)
    }
  }

  @Test func thePriceTableIsEditedAndBadAmountsAreRefused() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let set = try await client.post(
        "/prices", form: [("country", "DE"), ("provider", "8"), ("amount", "13,99"), ("currency", "eur")], headers: ada)
      #expect(set.location == "/prices")
      let page = try await client.page("/prices", headers: ada)
      #expect(page.contains("<td>DE</td><td>Netflix</td><td>13,99"))
      for (amount, currency) in [("free", "EUR"), ("-3", "EUR"), ("5", "EURO")] {
        let refused = try await client.post(
          "/prices", form: [("country", "DE"), ("provider", "8"), ("amount", amount), ("currency", currency)], headers: ada)
        #expect(refused.status == .unprocessableContent, "\(amount) \(currency)")
      }
      #expect(try await client.post("/prices/remove", form: [("country", "DE"), ("providerId", "8")], headers: ada).location == "/prices")
      #expect(!(try await client.page("/prices", headers: ada)).contains("<td>DE</td><td>Netflix</td>"))
    }
  }

  @Test func theNewPagesCarryNoInlineScriptOrStyle() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let path = try #require(try await client.post("/shows", form: [("title", "Severance")], headers: ada).location)
      for uri in ["/shows", path, "/prices", "/journal", "/journal?q=x"] {
        let page = try await client.page(uri, headers: ada)
        #expect(!page.contains(" style="), "\(uri)")
        #expect(page.occurrences(of: "<script") == page.occurrences(of: "<script src="), "\(uri)")
      }
    }
  }
}
