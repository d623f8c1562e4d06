import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// The layout rules of issue 16 that hold in the served HTML, without a browser: the grid's
/// columns for the screen's width, the marks a dark theme repaints, the habit grid's labels,
/// and the controls that show only where they apply. Today is Sunday 8 March 2026.
@Suite struct WebLookTests {
  @Test func theDateGridIsLaidOutForTheScreensWidthAndCentredWhenWide() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      // SPEC 5: W is the screen. 375 px gives 11 columns across the whole width.
      let phone = try await client.fetch("/today?width=375", headers: owner)
      #expect(phone.text.contains(#"data-layout-width="375" data-columns="11""#))
      #expect(phone.text.contains(#"width="375" height="#), "the picture spans the screen")
      // A laptop gets 14 columns at 20, and only the grid and its padding are drawn: CSS
      // centres them, so the card need not be as wide as the screen.
      let laptop = try await client.fetch("/today?width=1280", headers: owner)
      #expect(laptop.text.contains(#"data-layout-width="1280" data-columns="14" data-wide-from="600""#))
      #expect(laptop.text.contains(#"width="600" height="232" viewBox="340 0 600 232""#))
    }
  }

  /// Every page remembers the screen's width, so a habit's first visit draws its grid for the
  /// card that screen gives, rather than for a phone and then again once the card is measured.
  @Test func aHabitsFirstVisitIsLaidOutForItsCardOnTheRememberedScreen() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      let session = try #require(owner[.cookie])
      func layoutWidth(_ cookies: String, query: String = "") async throws -> String? {
        let page = try await client.page("/habits/\(id)\(query)", headers: [.cookie: "\(session)\(cookies)"])
        return page.components(separatedBy: #"data-layout-width=""#).dropFirst().first?.prefix { $0 != "\"" }.description
      }
      #expect(try await layoutWidth("") == "343", "no width remembered: a phone's")
      #expect(try await layoutWidth("; tally_width=375") == "309", "375 less main's and the card's padding and border")
      #expect(try await layoutWidth("; tally_width=1280") == "1054", "main is at most 1120 px wide")
      #expect(try await layoutWidth("; tally_width=1280; tally_grid_width=700") == "700", "a measured card wins")
      #expect(try await layoutWidth("; tally_width=1280", query: "?width=500") == "500", "and an asked width")
      #expect(try await layoutWidth("; tally_width=90") == "343", "a screen too narrow to lay out for")
    }
  }

  @Test func journalMarksCarryTheirThemeClassAndANumberNeverCoversTheChatDot() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      try await server.store.setJournalEntry(try JournalEntry(day: Day("2026-03-05")!, text: "Rain"), for: user)
      _ = try await client.post("/today/chat", form: [("day", "2026-03-08"), ("text", "hi")], headers: owner)
      let page = try await client.fetch("/today?width=375", headers: owner)
      // The light theme keeps SPEC's #333B40; the class lets the dark theme lighten it.
      #expect(page.text.contains(##"<circle class="entry-mark" r="9" fill="#333B40"/>"##))
      // Today always shows its number: with chat, number and dot sit apart.
      let today = try #require(page.text.components(separatedBy: #"data-day="2026-03-08""#).dropFirst().first)
      let circle = today.components(separatedBy: "</a>")[0]
      #expect(circle.contains(##"<circle class="entry-mark" cy="5" r="4" fill="#333B40"/>"##))
      #expect(circle.contains(#"<text y="-4""#))
    }
  }

  @Test func theDateRowShowsTheStreakOnceWithItsHeaderInsideTheScroll() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.send(.patch, "/api/v1/settings", json: ["showDatePickerGrid": false], headers: owner)
      _ = try await client.post("/today/chat", form: [("day", "2026-03-07"), ("text", "hi")], headers: owner)
      let page = try await client.fetch("/today", headers: owner)
      #expect(!page.text.contains("id=\"streak-badge\""), "the header already says the streak")
      #expect(page.text.contains("class=\"today has-strip\""))
      let strip = try #require(page.text.components(separatedBy: "id=\"date-strip\"").dropFirst().first)
      #expect(strip.hasPrefix(#" data-scroll-to="#))
      #expect(strip.contains("<p class=\"strip-header\" id=\"strip-header\">1 Day Streak"))
      let gridPage = try await client.send(.patch, "/api/v1/settings", json: ["showDatePickerGrid": true], headers: owner)
      #expect(gridPage.status == .ok)
      #expect(try await client.fetch("/today", headers: owner).text.contains("id=\"streak-badge\">1 Day Streak"))
    }
  }

  @Test func theHabitGridNamesMonthsAndWeekdaysTotalsTheYearAndMarksSkipsAndNotes() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      _ = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-04"), ("status", "skipped"), ("note", "Ill")], headers: owner)
      _ = try await client.post("/habits/\(id)/mark", form: [("day", "2026-03-02"), ("status", "done")], headers: owner)
      _ = try await client.post("/habits/\(id)/mark", form: [("day", "2026-02-10"), ("status", "done")], headers: owner)
      let page = try await client.fetch("/habits/\(id)?width=343", headers: owner).text
      // 24 px from one cell to the next, a thumb's width: (343 − 32 + 4) / 24 → 13 weeks.
      #expect(page.contains(#"data-weeks="13""#))
      #expect(page.contains(#"<rect width="20" height="20" rx="4""#))
      #expect(page.contains(">Mar</text>") && page.contains(">Feb</text>"), "months are named over their weeks")
      #expect(page.contains(">Mon</text>") && page.contains(">Thu</text>"), "weekdays are not single letters")
      #expect(page.contains("2 days done in the last year"))
      #expect(page.contains("<title>Wednesday 4 March, skipped, note: Ill</title>"), "every day has a tooltip")
      #expect(page.occurrences(of: #"class="skip-mark""#) == 3, "the skipped day, the key, and the look offline")
      #expect(page.occurrences(of: #"class="note-mark""#) == 3, "the day with a note, the key, and the look offline")
    }
  }

  /// A phone shows 13 weeks; back-filling 3 October means paging back, and a day marked there
  /// keeps the page where it was.
  @Test func theHabitGridPagesBackToEarlierWeeksAndStaysThereWhenADayIsMarked() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      func link(_ rel: String, in page: String) -> String? {
        guard let tag = page.range(of: #"rel="\#(rel)""#) else { return nil }
        let before = page[..<tag.lowerBound]
        guard let start = before.range(of: #"href=""#, options: .backwards) else { return nil }
        return String(before[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
      }
      var path = "/habits/\(id)"
      var page = try await client.page(path + "?width=343", headers: owner)
      #expect(link("next", in: page) == nil, "nothing after today")
      var pages = 0
      while !page.contains(#"data-day="2025-10-03""#), pages < 5, let earlier = link("prev", in: page) {
        path = earlier
        page = try await client.page(path + "&width=343", headers: owner)
        pages += 1
      }
      #expect(pages == 1, "13 weeks a page: 3 October is one page back from 8 March")
      #expect(page.contains(#"data-weeks="13""#) && !page.contains("upcoming"))
      #expect(page.contains(#"?day=2025-10-03&amp;until="#), "a day's editor keeps the weeks shown")

      let toggled = try await client.postPageForm(
        "/habits/\(id)/toggle", [("day", "2025-10-03"), ("back", path)], headers: owner)
      #expect(toggled.headers[.location] == path)
      page = try await client.page(path + "&width=343", headers: owner)
      #expect(page.contains("<title>Friday 3 October 2025, completed</title>"))

      // Later pages lead back to the plain page, which ends with today.
      while let later = link("next", in: page), pages > 0 {
        path = later
        page = try await client.page(path + (path.contains("?") ? "&" : "?") + "width=343", headers: owner)
        pages -= 1
      }
      #expect(path == "/habits/\(id)" && link("next", in: page) == nil)

      // Opening an old day's editor shows its week, however it was reached.
      page = try await client.page("/habits/\(id)?day=2025-10-04&width=343", headers: owner)
      #expect(page.contains(#"data-day="2025-10-04""#) && page.contains("Saturday 4 October 2025"))
      let bad = try await client.send(.get, "/habits/\(id)?until=October", headers: owner)
      #expect(bad.status == .badRequest && bad.text.contains("is not a day like"))
      let beforeAll = try await client.send(.get, "/today?day=0000-01-01", headers: owner)
      #expect(beforeAll.status == .badRequest && beforeAll.text.contains("the first day Tally keeps"))
    }
  }

  @Test func habitCardsStretchTheirGridKeepOneLineOfActionsAndSmallGroupsShareARow() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      _ = try await client.addHabit("Swim", ["group": "Sport"], headers: owner)
      _ = try await client.post("/habits/\(id)/mark", form: [("day", "2026-03-07"), ("status", "skipped")], headers: owner)
      let page = try await client.fetch("/habits", headers: owner).text
      #expect(page.occurrences(of: "class=\"habit-group span-1\"") == 2)
      // No width or height: CSS stretches the picture to the card.
      #expect(page.contains(#"<svg class="mini-grid" viewBox="0 0 258 68" role="img""#))
      #expect(page.contains(#"class="mini-skipped""#))
    }
  }

  @Test func theHabitFormMarksEachOptionWithTheChoiceItBelongsToAndOffersIcons() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let page = try await client.fetch("/habits/new", headers: owner).text
      for part in ["class=\"if-weekly", "class=\"if-single", "class=\"if-periodic"] {
        #expect(page.occurrences(of: part) == 1, "\(part) wraps its fields so CSS can hide them")
      }
      #expect(page.occurrences(of: "data-icon=") >= 20)
      #expect(page.contains(#"<input id="habit-icon" name="icon""#), "typing an icon still works")
    }
  }

  @Test func statisticsNameWeekdaysUniquelyAndShowAQuarterOnAPhone() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addHabit("Read", headers: owner)
      let page = try await client.fetch("/statistics", headers: owner).text
      for name in ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] {
        #expect(page.contains("<span aria-hidden=\"true\">\(name)</span>"), "\(name) labels its row")
      }
      let cells = page.occurrences(of: "class=\"ag-cell lv")
      let old = page.occurrences(of: " old\"")
      let legend = 5
      #expect(cells - old - legend == 7 * 13, "a phone shows the newest 13 weeks")
    }
  }
}
