import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

@Suite struct TodayRouteTests {
  @Test func theTodayViewCountsTheStreakFromYesterdayAndLaysTheGridOutForTheWidth() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      // Chat on the two days before today (2026-03-08) and today; today never counts.
      for day in ["2026-03-06", "2026-03-07", "2026-03-08"] {
        #expect(try await client.send(.post, "/api/v1/chat/\(day)", json: ["text": "hi"], headers: owner).status == .created)
      }
      _ = try await client.send(.put, "/api/v1/journal/2026-03-07", json: ["text": "a good day"], headers: owner)

      let today = try await client.send(.get, "/api/v1/today?width=372", headers: owner)
      #expect(today.status == .ok)
      today.expectSchema("TodayView")
      #expect(today.value("today") as? String == "2026-03-08")
      #expect(today.value("selectedDay") as? String == "2026-03-08")
      #expect(today.value("showsTodayButton") as? Bool == false)
      #expect(today.value("streak") as? Int == 2)
      #expect(today.value("streakBadge") as? String == "2 Days Streak")
      #expect(today.value("dateRow.header") as? String == "2 Days Streak • 3 Chats • 1 Entry")
      #expect(today.value("grid.layout.columns") as? Int == 11)
      #expect(today.value("grid.layout.spacing") as? Double == 9.8)
      let cells = try #require(today.value("grid.cells") as? [[String: Any]])
      #expect(cells.count == 66)
      #expect(cells.last?["day"] as? String == "2026-03-12")
      let seventh = try #require(cells.first { $0["day"] as? String == "2026-03-07" })
      #expect(seventh["hasEntry"] as? Bool == true)
      #expect(seventh["hasChat"] as? Bool == true)
    }
  }

  @Test func aSelectedDayMovesTheDateRowAndShowsTheTodayButton() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let view = try await client.send(.get, "/api/v1/today?day=2026-03-01&width=320", headers: owner)
      #expect(view.status == .ok)
      view.expectSchema("TodayView")
      #expect(view.value("selectedDay") as? String == "2026-03-01")
      #expect(view.value("showsTodayButton") as? Bool == true)
      // 2026-03-01 is index 23 of T−30 … T+2; the row keeps five days before it.
      #expect(view.value("dateRow.scrollTarget.index") as? Int == 18)
      #expect(view.value("dateRow.scrollTarget.anchor") as? String == "leading")
      #expect(view.value("streakBadge") == nil)
      #expect(view.value("grid.layout.width") as? Double == 320)
    }
  }

  @Test func todayIsTheUsersDayInTheirTimeZone() async throws {
    try await TestServer().test { client in
      // 2026-03-08 12:00 UTC is already 01:00 on the 9th in Auckland.
      let response = try await client.send(
        .post, "/api/v1/setup", json: ["name": "ada", "password": "correct horse", "timeZone": "Pacific/Auckland"])
      let cookie = try #require(response.headers[.setCookie]?.split(separator: ";").first)
      let view = try await client.send(.get, "/api/v1/today", headers: [.cookie: String(cookie)])
      #expect(view.value("today") as? String == "2026-03-09")
    }
  }

  @Test func theGridIsLeftOutWhenTheUserSwitchesItOff() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let id = try await client.userID(owner)
      var settings = try await server.store.user(id: id).settings
      settings.showDatePickerGrid = false
      _ = try await server.store.updateSettings(settings, for: id)
      let view = try await client.send(.get, "/api/v1/today", headers: owner)
      view.expectSchema("TodayView")
      #expect(view.value("grid") == nil)
      #expect(view.value("settings.showDatePickerGrid") as? Bool == false)
    }
  }

  @Test(arguments: [
    ("width=wide", "width"), ("width=-1", "width"), ("width=inf", "width"), ("day=2026-02-30", "day"),
    ("day=yesterday", "day"),
  ])
  func aBadQueryIsAFourHundredNamingIt(query: String, field: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.get, "/api/v1/today?\(query)", headers: owner)
      #expect(response.status == .badRequest)
      #expect(response.object["field"] as? String == field)
      response.expectSchema("Problem")
    }
  }

  @Test func signedOutIsRefused() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let response = try await client.send(.get, "/api/v1/today")
      #expect(response.status == .unauthorized)
    }
  }

  @Test func anotherUserSeesOnlyTheirOwnJournalInTheView() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.send(.post, "/api/v1/chat/2026-03-07", json: ["text": "hi"], headers: owner)
      let bob = try await client.memberSession(owner: owner)
      let view = try await client.send(.get, "/api/v1/today", headers: bob)
      #expect(view.value("streak") as? Int == 0)
      #expect(view.value("dateRow.header") as? String == "0 Days Streak • 0 Chats • 0 Entries")
    }
  }
}
