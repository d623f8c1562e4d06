import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

extension TestClientProtocol {
  /// Marks `days` done for the habit `id`.
  func markDone(_ id: Any?, _ days: [String], headers: HTTPFields) async throws {
    let response = try await send(
      .post, "/api/v1/habits/\(id ?? "")/entries", json: ["days": days, "status": "done"], headers: headers)
    #expect(response.status == .ok, "\(response.text)")
  }
}

/// The Statistics page (SPEC 4) for today 2026-03-08, a Sunday, in UTC unless a test moves it.
@Suite struct StatisticsPageTests {
  @Test func theActivityGridRankingAndChartsShowTheUsersHabits() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let run = try await client.addHabit("Run", ["createdDay": "2026-03-01"], headers: owner)
      let read = try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: owner)
      try await client.markDone(run["id"], ["2026-03-06", "2026-03-07", "2026-03-08"], headers: owner)
      try await client.markDone(read["id"], ["2026-03-08"], headers: owner)

      let html = try await client.page("/statistics", headers: owner)
      // 52 weeks of 7 days, each a labelled cell of an ARIA grid.
      #expect(html.occurrences(of: #"role="gridcell""#) == 52 * 7)
      #expect(html.contains(#"aria-label="Sunday 8 March, 2 of 2 habits done""#))
      #expect(html.contains(#"aria-label="Saturday 7 March, 1 of 2 habits done""#))
      #expect(html.contains("lv4"), "every habit done today is the top level")
      // Run (3 of 8 days) ranks above Read (1 of 8).
      let runAt = try #require(html.range(of: "Run</th>"))
      let readAt = try #require(html.range(of: "Read</th>"))
      #expect(runAt.lowerBound < readAt.lowerBound)
      #expect(html.contains("<td>3 days</td>"))
      #expect(html.contains("Last 12 weeks, 4 done in all."))
      #expect(html.contains("Week of Sunday 1 March: 2 done"))
      #expect(html.contains("Week of Sunday 8 March: 2 done"))
      #expect(html.contains("Saturday: 1 done"))
    }
  }

  @Test func aUserWithoutHabitsSeesHowToStart() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let html = try await client.page("/statistics", headers: owner)
      #expect(html.contains("No habits to count yet"))
      #expect(!html.contains(#"role="grid""#))
    }
  }

  @Test func anotherUsersHabitsNeverAppear() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let habit = try await client.addHabit("Secret habit", headers: owner)
      try await client.markDone(habit["id"], ["2026-03-08"], headers: owner)
      let bob = try await client.addMember("bob", owner: owner)
      let html = try await client.page("/statistics", headers: bob)
      #expect(!html.contains("Secret habit"))
      #expect(html.contains("No habits to count yet"))
    }
  }

  /// In Apia (UTC+13) it is already 01:00 on Monday the 9th, and weeks start on Monday there.
  @Test func theGridFollowsTheUsersZoneAndFirstWeekday() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      try await client.patchSettings(["timeZone": "Pacific/Apia", "firstWeekday": "monday"], headers: owner)
      let habit = try await client.addHabit("Stretch", ["createdDay": "2026-03-02"], headers: owner)
      try await client.markDone(habit["id"], ["2026-03-09"], headers: owner)
      let html = try await client.page("/statistics?weeks=26", headers: owner)
      #expect(html.occurrences(of: #"role="gridcell""#) == 26 * 7)
      #expect(html.contains(#"tabindex="0" aria-label="Monday 9 March, 1 of 1 habit done""#), "today is the tab stop")
      let mondayRow = try #require(html.range(of: #"<span class="visually-hidden">Monday</span></span>"#))
      let sundayRow = try #require(html.range(of: #"<span class="visually-hidden">Sunday</span></span>"#))
      #expect(mondayRow.lowerBound < sundayRow.lowerBound, "rows start at the first weekday")
      // The weekday chart runs Monday … Sunday too.
      let monday = try #require(html.range(of: "Monday: 1 done"))
      let sunday = try #require(html.range(of: "Sunday: 0 done"))
      #expect(monday.lowerBound < sunday.lowerBound)
    }
  }

  @Test func aBadWeekCountIsAnErrorPageNamingIt() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let html = try await client.page("/statistics?weeks=0", headers: owner, status: .badRequest)
      #expect(html.contains("weeks"))
    }
  }

  @Test func signedOutVisitorsAreSentToSignIn() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let response = try await client.send(.get, "/statistics")
      #expect(response.status == .seeOther)
      #expect(response.headers[.location] == "/signin?next=%2Fstatistics")
    }
  }
}
