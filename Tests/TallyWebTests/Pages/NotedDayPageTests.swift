import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// The day editor keeps a note on a day not done (issue 15); today is 2026-03-08.
@Suite struct NotedDayPageTests {
  @Test func theDayEditorSavesANoteOnADayNotDoneAndTodayAndTheGridShowIt() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let created = try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: owner)
      let id = try #require(created["id"] as? String)
      let habitID = try #require(UUID(uuidString: id))

      let saved = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-08"), ("status", "none"), ("note", "out of town")], headers: owner)
      #expect(saved.status == .seeOther)
      #expect(
        try await server.store.entries(of: habitID, for: user)
          == [HabitEntry(day: Day("2026-03-08")!, status: .noted, note: "out of town")])
      let today = try await client.fetch("/today", headers: owner).text
      #expect(today.contains("· has a note"))
      #expect(today.contains("aria-pressed=\"false\""), "a noted day is not done")
      let page = try await client.fetch("/habits/\(id)?day=2026-03-08&width=600", headers: owner).text
      #expect(page.contains("aria-label=\"Sunday 8 March, not done, note: out of town\""))
      #expect(page.contains("class=\"note-mark\""))
      #expect(page.contains("value=\"none\" checked"), "the editor says not done")

      // Not done without a note clears the day.
      _ = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-08"), ("status", "none"), ("note", " ")], headers: owner)
      #expect(try await server.store.entries(of: habitID, for: user).isEmpty)
      let cleared = try await client.fetch("/today", headers: owner).text
      #expect(cleared.contains("<span class=\"due-detail\">Daily</span>"), "a day without a note says nothing of one")
      #expect(!cleared.contains("has a note"))
    }
  }

  /// A habit counted by the month totals the month on Today, not the week.
  @Test func todaySaysAMonthlyHabitsTotalSoFarThisMonth() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let created = try await client.addHabit(
        "Swim", ["measure": ["unit": "km", "target": 10], "frequency": ["type": "monthly", "timesPerMonth": 1], "createdDay": "2026-03-01"],
        headers: owner)
      let id = try #require(created["id"] as? String, "\(created)")
      for (day, amount) in [("2026-03-02", "4"), ("2026-03-08", "2")] {
        _ = try await client.post("/habits/\(id)/mark", form: [("day", day), ("status", "done"), ("amount", amount)], headers: owner)
      }
      let today = try await client.fetch("/today", headers: owner).text
      #expect(today.contains("6 so far this month"), "\(today)")
      #expect(!today.contains("so far this week"))
    }
  }
}
