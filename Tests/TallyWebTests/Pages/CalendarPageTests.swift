import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

private var netflix: [String: Any] { ["id": 8, "name": "Netflix", "logoURL": "https://image.tmdb.org/n.png"] }
private var hulu: [String: Any] { ["id": 15, "name": "Hulu"] }

extension TestClientProtocol {
  /// A watched show with one episode on each of `days`; returns its id.
  func addAiringShow(
    _ title: String, providers: [String: Any], days: [String], status: String = "watching", headers: HTTPFields
  ) async throws -> String {
    let made = try await send(
      .post, "/api/v1/shows", json: ["title": title, "status": status, "providers": providers], headers: headers)
    #expect(made.status == .created, "\(made.text)")
    let id = try #require(made.object["id"] as? String)
    let episodes = days.enumerated().map { ["season": 1, "number": $0 + 1, "title": "Episode \($0 + 1)", "airDay": $1] }
    let saved = try await send(.put, "/api/v1/shows/\(id)/episodes", json: ["episodes": episodes], headers: headers)
    #expect(saved.status == .ok, "\(saved.text)")
    return id
  }
}

/// The Calendar page (SPEC 6); today is Sunday 2026-03-08 in UTC unless a test moves it.
@Suite struct CalendarPageTests {
  @Test func aDayWithPricedProvidersOpensWithItsTotalAndAnEmptyDayOpensNothing() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addAiringShow("Severance", providers: ["US": [netflix, hulu]], days: ["2026-03-10"], headers: owner)

      let month = try await client.page("/calendar/2026-03?country=US", headers: owner)
      #expect(month.contains("March 2026"))
      #expect(month.occurrences(of: #"role="gridcell""#) == 42)
      // The busy day is a link labelled with its providers; the empty day next to it is not.
      #expect(month.contains(#"aria-label="Netflix and Hulu on Tuesday 10 March""#))
      #expect(month.contains("day=2026-03-10#day-detail"))
      #expect(month.contains(#"<div role="gridcell" class="tile" aria-label="Wednesday 11 March""#))
      #expect(!month.contains("day=2026-03-11"))
      #expect(month.contains(#"aria-current="date""#))
      #expect(!month.contains("TOTAL:"), "no day is open until one is chosen")

      let open = try await client.page("/calendar/2026-03?country=US&day=2026-03-10", headers: owner)
      #expect(open.contains("<dialog open"))
      #expect(open.contains("TOTAL: $36.98"))
      #expect(open.contains("Netflix, $17.99, airing Tuesday 10 March"))
      #expect(open.contains("Hulu, $18.99, airing Tuesday 10 March"))
      #expect(open.contains(#"href="/calendar/2026-03?country=US" id="sheet-close""#))

      let empty = try await client.page("/calendar/2026-03?country=US&day=2026-03-11", headers: owner)
      #expect(!empty.contains("<dialog"))
      #expect(!empty.contains("TOTAL:"))
    }
  }

  @Test func anUnpricedProviderShowsADashAndIsLeftOutOfTheTotal() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let kanopy: [String: Any] = ["id": 4242, "name": "Kanopy"]
      _ = try await client.addAiringShow("Bluey", providers: ["AU": [netflix, kanopy]], days: ["2026-03-05"], headers: owner)
      let html = try await client.page("/calendar/2026-03?country=au&day=2026-03-05", headers: owner)
      #expect(html.contains("TOTAL: $18.99"))
      #expect(html.contains("Kanopy, no price set, aired Thursday 5 March"))
      #expect(html.contains(#"<span class="row-price">—</span>"#))
      #expect(html.contains(#"<option value="AU" selected>"#))
      // The US has nothing on that day: the same show is only on in Australia.
      let us = try await client.page("/calendar/2026-03?country=US", headers: owner)
      #expect(!us.contains("Netflix"))
    }
  }

  @Test func theCurrentMonthIsTheUsersAndNavigatesByMonth() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      // 01:00 on Monday 9 March in Apia; weeks there start on Monday.
      try await client.patchSettings(["timeZone": "Pacific/Apia", "firstWeekday": "monday"], headers: owner)
      let html = try await client.page("/calendar", headers: owner)
      #expect(html.contains("March 2026"))
      #expect(html.contains(#"aria-label="Monday 9 March" tabindex="0" aria-current="date""#))
      #expect(html.contains(#"href="/calendar/2026-02?country=US""#))
      #expect(html.contains(#"href="/calendar/2026-04?country=US""#))
      let monday = try #require(html.range(of: #"<span role="columnheader" aria-label="Monday">M</span>"#))
      let sunday = try #require(html.range(of: #"<span role="columnheader" aria-label="Sunday">S</span>"#))
      #expect(monday.lowerBound < sunday.lowerBound)
      #expect(!html.contains(#"id="cal-today""#), "the Today link shows only away from the current month")
      #expect(try await client.page("/calendar/2026-05", headers: owner).contains(#"href="/calendar/2026-03?country=US" id="cal-today""#))
    }
  }

  @Test func aLeapDayIsATileLikeAnyOther() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addAiringShow("Leap", providers: ["US": [netflix]], days: ["2028-02-29"], headers: owner)
      let html = try await client.page("/calendar/2028-02?country=US&day=2028-02-29", headers: owner)
      #expect(html.contains(#"aria-label="Netflix on Tuesday 29 February""#))
      #expect(html.contains("TOTAL: $17.99"))
      #expect(html.contains("Tuesday 29 February 2028"))
    }
  }

  @Test func anotherUsersAndPausedShowsNeverAppear() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addAiringShow("Mine", providers: ["US": [netflix]], days: ["2026-03-10"], headers: owner)
      let bob = try await client.addMember("bob", owner: owner)
      _ = try await client.addAiringShow("Paused", providers: ["US": [hulu]], days: ["2026-03-12"], status: "paused", headers: bob)
      let html = try await client.page("/calendar/2026-03?country=US&day=2026-03-10", headers: bob)
      #expect(!html.contains("Netflix"))
      #expect(!html.contains("Hulu"))
      #expect(!html.contains("<dialog"))
      #expect(html.contains("You are not watching any shows yet"))
    }
  }

  @Test(arguments: [
    ("/calendar/2026-13", "month"), ("/calendar/9999-12", "month"), ("/calendar/2026-03?country=USA", "country"),
    ("/calendar/2026-03?day=2026-02-30", "day"),
  ])
  func aBadAddressIsAnErrorPageNamingWhatIsWrong(uri: String, what: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let html = try await client.page(uri, headers: owner, status: .badRequest)
      #expect(html.contains(what))
    }
  }

  @Test func signedOutVisitorsAreSentToSignIn() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let response = try await client.send(.get, "/calendar/2026-03?country=US")
      #expect(response.status == .seeOther)
      #expect(response.headers[.location]?.hasPrefix("/signin?next=%2Fcalendar%2F2026") == true)
    }
  }
}
