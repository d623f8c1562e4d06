import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

private var netflix: [String: Any] { ["id": 8, "name": "Netflix", "logoURL": "https://image.tmdb.org/n.png"] }
private var hulu: [String: Any] { ["id": 15, "name": "Hulu"] }

extension TestClientProtocol {
  /// Adds a show and returns its id.
  func addShow(
    _ title: String, status: String = "watching", providers: [String: Any] = ["us": [netflix]], headers: HTTPFields
  ) async throws -> String {
    let response = try await send(
      .post, "/api/v1/shows", json: ["title": title, "status": status, "providers": providers], headers: headers)
    #expect(response.status == .created)
    return try #require(response.object["id"] as? String)
  }
}

@Suite struct StreamingRouteTests {
  // MARK: Shows

  @Test func aShowIsAddedListedReadEditedAndDeleted() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let made = try await client.send(
        .post, "/api/v1/shows", json: ["title": " Severance ", "providers": ["us": [netflix]]], headers: owner)
      #expect(made.status == .created)
      made.expectSchema("Show")
      let id = try #require(made.object["id"] as? String)
      #expect(id == id.lowercased())
      #expect(made.object["title"] as? String == "Severance")
      #expect(made.object["status"] as? String == "watching", "a new show is watched unless the body says otherwise")
      #expect((made.object["providers"] as? [String: Any])?.keys.sorted() == ["US"])

      _ = try await client.addShow("Andor", headers: owner)
      let list = try await client.send(.get, "/api/v1/shows", headers: owner)
      list.expectSchema(arrayOf: "Show")
      #expect(list.array.map { $0["title"] as? String } == ["Andor", "Severance"])

      let edited = try await client.send(.put, "/api/v1/shows/\(id)", json: ["status": "paused"], headers: owner)
      #expect(edited.status == .ok)
      edited.expectSchema("Show")
      #expect(edited.object["status"] as? String == "paused")
      #expect(edited.object["title"] as? String == "Severance", "fields the body leaves out keep their values")
      #expect((edited.object["providers"] as? [String: Any])?.keys.sorted() == ["US"])

      let read = try await client.send(.get, "/api/v1/shows/\(id.uppercased())", headers: owner)
      #expect(read.text == edited.text)

      #expect(try await client.send(.delete, "/api/v1/shows/\(id)", headers: owner).status == .noContent)
      #expect(try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).status == .notFound)
      #expect(try await client.send(.delete, "/api/v1/shows/\(id)", headers: owner).status == .notFound)
    }
  }

  @Test(arguments: [
    (#"{"status": "watching"}"#, "title", 422),
    (#"{"title": "  "}"#, "title", 422),
    (#"{"title": "X", "status": "binging"}"#, "status", 422),
    (#"{"title": "X", "providers": {"USA": []}}"#, "providers", 422),
    (#"{"title": "X", "providers": {"US": [{"id": 0, "name": "N"}]}}"#, "providers.US[0]", 422),
    (#"{"title": "X", "providers": {"US": [{"id": 8, "name": "N", "colour": "red"}]}}"#, "providers.US[0].colour", 422),
    (#"{"title": "X", "year": 2022}"#, "year", 422),
    (#"{"title": "Sev\u0000erance"}"#, "title", 422),
    (#"{"title": "X", "providers": {"US": [{"id": 2147483648, "name": "N"}]}}"#, "providers.US[0].id", 422),
    (#"{"title": "X", "providers": {"US": [{"id": 8, "name": "Net\u0000flix"}]}}"#, "providers.US[0]", 422),
    (#"{"title": "X", "providers": {"US": [{"id": 8, "name": "N", "logoURL": "javascript:alert(1)"}]}}"#,
     "providers.US[0].logoURL", 422),
    (#"{"title": "X", "providers": {"US": [{"id": 8, "name": "N"}, {"id": 8, "name": "M"}]}}"#, nil, 409),
    (#"["title"]"#, nil, 400),
  ] as [(String, String?, Int)])
  func aBadShowBodyIsRefusedAndAddsNothing(body: String, field: String?, status: Int) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.post, "/api/v1/shows", json: body, headers: owner)
      #expect(response.status.code == status)
      #expect(response.object["field"] as? String == field)
      #expect(!response.detail.isEmpty)
      response.expectSchema("Problem")
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.isEmpty)
    }
  }

  /// A show fetched from TMDB stays linked to it through an edit, so refresh keeps working.
  @Test func anEditKeepsTheShowsTMDBID() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let id = UUID()
      try await server.store.saveShow(
        try Show(id: id, title: "Severance", status: .watching, tmdbID: 95396), for: user)
      let edited = try await client.send(.put, "/api/v1/shows/\(id.storeText)", json: ["status": "paused"], headers: owner)
      #expect(edited.status == .ok, "\(edited.text)")
      let stored = try await server.store.show(id: id, for: user)
      #expect(stored.status == .paused)
      #expect(stored.tmdbID == 95396)
    }
  }

  @Test func aRefusedEditChangesNothing() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Andor", headers: owner)
      let before = try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).text
      for body in [#"{"title": ""}"#, #"{"providers": {"U1": []}}"#, #"{"title": "B", "rating": 5}"#] {
        let response = try await client.send(.put, "/api/v1/shows/\(id)", json: body, headers: owner)
        #expect(response.status == .unprocessableContent, "\(body)")
      }
      #expect(try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).text == before)
    }
  }

  /// Issue 29: one rule for titles in every face (SPEC's NameKey): case and Unicode form do
  /// not make a second show of one title, adding or renaming.
  @Test func aTitleThatDiffersOnlyInCaseIsRefused() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addShow("Pizza", headers: owner)
      _ = try await client.addShow("Café", headers: owner)
      for title in ["pizza", "PIZZA", "CAFE\u{0301}"] {
        let added = try await client.send(.post, "/api/v1/shows", json: ["title": title], headers: owner)
        #expect(added.status == .conflict, "\(title)")
        #expect(added.field == "title")
        #expect(added.detail.hasPrefix("You already have a show called '"), "\(added.detail)")
      }
      let other = try await client.addShow("Andor", headers: owner)
      let renamed = try await client.send(.put, "/api/v1/shows/\(other)", json: #"{"title": "PIZZA"}"#, headers: owner)
      #expect(renamed.status == .conflict && renamed.field == "title")
      #expect(try await client.send(.get, "/api/v1/shows", headers: owner).array.map { $0["title"] as? String } == ["Andor", "Café", "Pizza"])
      // A show keeps its own title whatever its case.
      let recased = try await client.send(.put, "/api/v1/shows/\(other)", json: #"{"title": "ANDOR"}"#, headers: owner)
      #expect(recased.status == .ok)
    }
  }

  @Test func anUnknownShowIsANotFound() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let unknown = UUID().uuidString.lowercased()
      for (method, path) in [
        (HTTPRequest.Method.get, "/api/v1/shows/\(unknown)"), (.put, "/api/v1/shows/\(unknown)"),
        (.delete, "/api/v1/shows/\(unknown)"), (.get, "/api/v1/shows/\(unknown)/episodes"),
        (.put, "/api/v1/shows/\(unknown)/episodes"), (.get, "/api/v1/shows/not-an-id"),
      ] {
        let body: Any? = path.hasSuffix("episodes") ? ["episodes": []] : method == .put ? ["title": "X"] : nil
        let response = try await client.send(method, path, json: body, headers: owner)
        #expect(response.status == .notFound, "\(method) \(path)")
        response.expectSchema("Problem")
      }
    }
  }

  // MARK: Episodes

  @Test func episodesAreAddedOrReplacedBySeasonAndNumber() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Andor", headers: owner)
      let first = try await client.send(
        .put, "/api/v1/shows/\(id)/episodes",
        json: ["episodes": [
          ["season": 1, "number": 2, "title": "That Would Be Me", "airDay": "2022-09-21"],
          ["season": 1, "number": 1, "title": "Kassa", "airDay": "2022-09-21"],
        ]], headers: owner)
      #expect(first.status == .ok)
      first.expectSchema(arrayOf: "Episode")
      #expect(first.array.map { $0["number"] as? Int } == [1, 2])
      #expect(first.array.first?["showId"] as? String == id)

      _ = try await client.send(
        .put, "/api/v1/shows/\(id)/episodes",
        json: ["episodes": [["season": 1, "number": 2, "title": "Renamed", "airDay": "2022-09-22"]]], headers: owner)
      let list = try await client.send(.get, "/api/v1/shows/\(id)/episodes", headers: owner)
      list.expectSchema(arrayOf: "Episode")
      #expect(list.array.map { $0["title"] as? String } == ["Kassa", "Renamed"])
      #expect(list.array.last?["airDay"] as? String == "2022-09-22")
    }
  }

  @Test(arguments: [
    (#"{"episodes": [{"season": -1, "number": 1, "title": "A", "airDay": "2026-03-01"}]}"#, "episodes[0].season"),
    (#"{"episodes": [{"season": 1, "number": 1, "title": " ", "airDay": "2026-03-01"}]}"#, "episodes[0].title"),
    (#"{"episodes": [{"season": 1, "number": 1, "title": "A", "airDay": "2026-02-30"}]}"#, "episodes[0].airDay"),
    (#"{"episodes": [{"season": 1, "number": 1, "title": "A", "airDay": "2026-03-01", "runtime": 50}]}"#,
     "episodes[0].runtime"),
    (#"{"episodes": [{"season": 1, "number": 1, "title": "A", "airDay": "2026-03-01"}, {"season": 1, "number": 1, "title": "B", "airDay": "2026-03-02"}]}"#,
     "episodes[1]"),
    (#"{"episodes": [{"season": 1, "number": 1, "title": "A", "airDay": "2026-03-01"}], "replace": true}"#, "replace"),
    (#"{"episodes": [{"season": 1, "number": 2147483648, "title": "A", "airDay": "2026-03-01"}]}"#, "episodes[0].number"),
    (#"{"episodes": [{"season": 1, "number": 1, "title": "A\u0000", "airDay": "2026-03-01"}]}"#, "episodes[0].title"),
  ])
  func aBadEpisodeRefusesTheWholeList(body: String, field: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Andor", headers: owner)
      let response = try await client.send(.put, "/api/v1/shows/\(id)/episodes", json: body, headers: owner)
      #expect(response.status == .unprocessableContent)
      #expect(response.object["field"] as? String == field)
      #expect(try await client.send(.get, "/api/v1/shows/\(id)/episodes", headers: owner).array.isEmpty)
    }
  }

  // MARK: Providers and prices

  @Test func providersAreThoseTheShowsNamePerCountryEachOnce() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      #expect(try await client.send(.get, "/api/v1/providers", headers: owner).text == "{}")
      _ = try await client.addShow("Andor", providers: ["US": [netflix, hulu], "AU": [netflix]], headers: owner)
      _ = try await client.addShow("Bluey", status: "finished", providers: ["US": [netflix]], headers: owner)
      let providers = try await client.send(.get, "/api/v1/providers", headers: owner)
      #expect(providers.status == .ok)
      providers.expectSchema("ProvidersByCountry")
      let us = try #require(providers.object["US"] as? [[String: Any]])
      #expect(us.map { $0["name"] as? String } == ["Hulu", "Netflix"])
      #expect((providers.object["AU"] as? [[String: Any]])?.count == 1)
    }
  }

  @Test func pricesStartFromTheShippedTableAndAreSetAndRemoved() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let shipped = try await client.send(.get, "/api/v1/prices", headers: owner)
      shipped.expectSchema(arrayOf: "Price")
      #expect(Set(shipped.array.compactMap { $0["country"] as? String }).isSuperset(of: ["US", "AU"]))

      let set = try await client.send(.put, "/api/v1/prices/fr/8", json: ["amount": 10.99, "currency": "eur"], headers: owner)
      #expect(set.status == .ok)
      set.expectSchema("Price")
      #expect(set.text == #"{"amount":10.99,"country":"FR","currency":"EUR","providerID":8}"#)
      let prices = try await client.send(.get, "/api/v1/prices", headers: owner)
      #expect(prices.array.contains { $0["country"] as? String == "FR" && $0["providerID"] as? Int == 8 })

      #expect(try await client.send(.delete, "/api/v1/prices/FR/8", headers: owner).status == .noContent)
      #expect(try await client.send(.get, "/api/v1/prices", headers: owner).text == shipped.text)
      #expect(try await client.send(.delete, "/api/v1/prices/FR/8", headers: owner).status == .noContent)
    }
  }

  @Test(arguments: [
    ("/api/v1/prices/USA/8", #"{"amount": 1, "currency": "USD"}"#, "country", 400),
    ("/api/v1/prices/US/netflix", #"{"amount": 1, "currency": "USD"}"#, "providerId", 400),
    ("/api/v1/prices/US/0", #"{"amount": 1, "currency": "USD"}"#, "providerId", 400),
    ("/api/v1/prices/US/2147483648", #"{"amount": 1, "currency": "USD"}"#, "providerId", 400),
    ("/api/v1/prices/US/8", #"{"amount": 1000000.01, "currency": "USD"}"#, "amount", 422),
    ("/api/v1/prices/US/8", #"{"amount": 1, "currency": "dollars"}"#, "currency", 422),
    ("/api/v1/prices/US/8", #"{"amount": -1, "currency": "USD"}"#, "amount", 422),
    ("/api/v1/prices/US/8", #"{"amount": "9.99", "currency": "USD"}"#, "amount", 422),
    ("/api/v1/prices/US/8", #"{"amount": 9.99}"#, "currency", 422),
    ("/api/v1/prices/US/8", #"{"amount": 9.99, "currency": "USD", "per": "month"}"#, "per", 422),
  ])
  func aBadPriceIsRefusedAndTheTableKept(path: String, body: String, field: String, status: Int) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let before = try await client.send(.get, "/api/v1/prices", headers: owner).text
      let response = try await client.send(.put, path, json: body, headers: owner)
      #expect(response.status.code == status)
      #expect(response.object["field"] as? String == field)
      response.expectSchema("Problem")
      #expect(try await client.send(.get, "/api/v1/prices", headers: owner).text == before)
    }
  }

  // MARK: Calendar

  @Test func theCalendarShowsTheProvidersOfWatchedShowsAiringEachDay() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let watching = try await client.addShow("Andor", headers: owner)
      let paused = try await client.addShow("Bluey", status: "paused", providers: ["US": [hulu]], headers: owner)
      for id in [watching, paused] {
        _ = try await client.send(
          .put, "/api/v1/shows/\(id)/episodes",
          json: ["episodes": [["season": 1, "number": 1, "title": "One", "airDay": "2026-03-10"]]], headers: owner)
      }
      let month = try await client.send(.get, "/api/v1/calendar/2026-03", headers: owner)
      #expect(month.status == .ok)
      month.expectSchema("MonthView")
      #expect(month.object["country"] as? String == "US", "the locale en_US gives the country")
      #expect(month.object["firstWeekday"] as? String == "sunday")
      let cells = try #require(month.object["cells"] as? [[String: Any]])
      #expect(cells.first?["day"] as? String == "2026-03-01")
      let tenth = try #require(cells.first { $0["day"] as? String == "2026-03-10" })
      #expect((tenth["providers"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Netflix"])
      #expect((tenth["display"] as? [String: Any])?["mode"] as? String == "logo")
      #expect(cells.first { $0["day"] as? String == "2026-03-08" }?["isToday"] as? Bool == true)

      let australia = try await client.send(.get, "/api/v1/calendar/2026-03?country=au", headers: owner)
      #expect(australia.object["country"] as? String == "AU")
      let empty = (australia.object["cells"] as? [[String: Any]])?.allSatisfy { ($0["providers"] as? [Any])?.isEmpty == true }
      #expect(empty == true)
    }
  }

  @Test(arguments: [
    ("/api/v1/calendar/2026-13", "month"), ("/api/v1/calendar/March", "month"),
    ("/api/v1/calendar/0000-01", "month"), ("/api/v1/calendar/9999-12", "month"),
    ("/api/v1/calendar/2026-03?country=USA", "country"), ("/api/v1/calendar/2026-03?country=1A", "country"),
  ])
  func aBadMonthOrCountryIsAFourHundred(path: String, field: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.get, path, headers: owner)
      #expect(response.status == .badRequest)
      #expect(response.object["field"] as? String == field)
    }
  }

  @Test func aLocaleWithoutACountryNeedsOneInTheQuery() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.userID(owner)
      var settings = try await server.store.user(id: id).settings
      settings.locale = "en"
      _ = try await server.store.updateSettings(settings, for: id)
      let response = try await client.send(.get, "/api/v1/calendar/2026-03", headers: owner)
      #expect(response.status == .badRequest)
      #expect(response.detail == "Your locale en names no country: add one, like ?country=US.")
      #expect(try await client.send(.get, "/api/v1/calendar/2026-03?country=US", headers: owner).status == .ok)
    }
  }

  // MARK: Who may

  @Test func signedOutEveryStreamingRouteIsRefused() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Andor", headers: owner)
      for (method, path) in [
        (HTTPRequest.Method.get, "/api/v1/shows"), (.post, "/api/v1/shows"), (.get, "/api/v1/shows/\(id)"),
        (.put, "/api/v1/shows/\(id)"), (.delete, "/api/v1/shows/\(id)"), (.get, "/api/v1/shows/\(id)/episodes"),
        (.put, "/api/v1/shows/\(id)/episodes"), (.get, "/api/v1/providers"), (.get, "/api/v1/prices"),
        (.put, "/api/v1/prices/US/8"), (.delete, "/api/v1/prices/US/8"), (.get, "/api/v1/calendar/2026-03"),
      ] {
        let response = try await client.send(method, path, json: method == .put || method == .post ? ["title": "X"] : nil)
        #expect(response.status == .unauthorized, "\(method) \(path)")
      }
      #expect(try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).status == .ok)
    }
  }

  @Test func anotherUserCannotSeeOrChangeTheFirstUsersShowsOrPrices() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.addShow("Andor", headers: owner)
      _ = try await client.send(
        .put, "/api/v1/shows/\(id)/episodes",
        json: ["episodes": [["season": 1, "number": 1, "title": "Kassa", "airDay": "2026-03-10"]]], headers: owner)
      _ = try await client.send(.put, "/api/v1/prices/FR/8", json: ["amount": 10.99, "currency": "EUR"], headers: owner)
      let show = try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).text
      let calendar = try await client.send(.get, "/api/v1/calendar/2026-03", headers: owner).text
      let prices = try await client.send(.get, "/api/v1/prices", headers: owner).text
      let bob = try await client.memberSession(owner: owner)

      #expect(try await client.send(.get, "/api/v1/shows", headers: bob).array.isEmpty)
      #expect(try await client.send(.get, "/api/v1/providers", headers: bob).text == "{}")
      for (method, path, body) in [
        (HTTPRequest.Method.get, "/api/v1/shows/\(id)", nil), (.put, "/api/v1/shows/\(id)", ["title": "Mine now"]),
        (.delete, "/api/v1/shows/\(id)", nil), (.get, "/api/v1/shows/\(id)/episodes", nil),
        (.put, "/api/v1/shows/\(id)/episodes",
         ["episodes": [["season": 1, "number": 1, "title": "Bob's", "airDay": "2026-03-11"]]]),
      ] as [(HTTPRequest.Method, String, Any?)] {
        let response = try await client.send(method, path, json: body, headers: bob)
        #expect(response.status == .notFound, "\(method) \(path)")
      }
      let bobsMonth = try await client.send(.get, "/api/v1/calendar/2026-03", headers: bob)
      #expect((bobsMonth.object["cells"] as? [[String: Any]])?.allSatisfy { ($0["providers"] as? [Any])?.isEmpty == true } == true)
      _ = try await client.send(.delete, "/api/v1/prices/FR/8", headers: bob)
      _ = try await client.send(.put, "/api/v1/prices/US/8", json: ["amount": 0, "currency": "USD"], headers: bob)

      #expect(try await client.send(.get, "/api/v1/shows/\(id)", headers: owner).text == show)
      #expect(try await client.send(.get, "/api/v1/calendar/2026-03", headers: owner).text == calendar)
      #expect(try await client.send(.get, "/api/v1/prices", headers: owner).text == prices)
    }
  }
}
