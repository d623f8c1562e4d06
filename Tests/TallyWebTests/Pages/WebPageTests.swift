import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

extension TestClientProtocol {
  /// Posts a form as a browser does, from the server's own origin.
  @discardableResult
  func post(_ uri: String, form: [(String, String)], headers: HTTPFields = [:]) async throws -> TestResponse {
    var headers = headers
    headers[.contentType] = "application/x-www-form-urlencoded"
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let body = form.map {
      "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }.joined(separator: "&")
    return try await executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
  }

  func fetch(_ uri: String, headers: HTTPFields) async throws -> TestResponse {
    try await executeRequest(uri: uri, method: .get, headers: headers, body: nil)
  }
}

extension TestResponse {
  var location: String? { headers[.location] }

  /// How many times `fragment` occurs in the body.
  func count(_ fragment: String) -> Int {
    text.components(separatedBy: fragment).count - 1
  }
}

@Suite struct WebPageTests {
  // MARK: Accounts

  @Test func aNewServerSendsVisitorsToSetUpAndSetUpSignsTheOwnerIn() async throws {
    try await TestServer().test { client in
      #expect(try await client.fetch("/", headers: [:]).location == "/setup")
      #expect(try await client.fetch("/today", headers: [:]).location == "/setup")
      let refused = try await client.post("/setup", form: [("name", "ada"), ("password", "short"), ("timeZone", "Europe/Berlin")])
      #expect(refused.status == .unprocessableContent)
      #expect(refused.text.contains("value=\"ada\""), "the refused form keeps the name")
      #expect(try await client.fetch("/setup", headers: [:]).status == .ok, "nothing was created")

      let made = try await client.post(
        "/setup", form: [("name", "ada"), ("password", "correct horse"), ("timeZone", "Europe/Berlin")])
      #expect(made.status == .seeOther)
      #expect(made.location == "/today")
      let cookie = try #require(made.headers[.setCookie]?.split(separator: ";").first)
      let today = try await client.fetch("/today", headers: [.cookie: String(cookie)])
      #expect(today.status == .ok)
      #expect(today.headers[.contentType] == "text/html; charset=utf-8")
      #expect(try await client.fetch("/setup", headers: [:]).location == "/signin", "set-up happens once")
    }
  }

  @Test func signInReturnsToThePageAskedForButNeverToAnotherSite() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      #expect(try await client.fetch("/habits?x=1", headers: [:]).location == "/signin?next=%2Fhabits%3Fx%3D1")
      let wrong = try await client.post("/signin", form: [("name", "ada"), ("password", "wrong horse"), ("next", "/habits")])
      #expect(wrong.status == .unauthorized)
      #expect(wrong.text.contains("role=\"alert\""))
      let back = try await client.post("/signin", form: [("name", "ada"), ("password", "correct horse"), ("next", "/habits")])
      #expect(back.location == "/habits")
      // Issue 17: what a browser would read as another site once it drops tabs and line
      // breaks, turns backslashes into slashes or decodes an encoded slash.
      let hostiles = [
        "https://evil.example/", "//evil.example/", "/\\evil.example", "/\t/evil.example", "/\n/evil.example",
        "/\r/evil.example", " //evil.example", "/%2F/evil.example", "/%2f%2fevil.example", "/%5Cevil.example",
        "/%09/evil.example", "/\u{0}/evil.example",
      ]
      for hostile in hostiles {
        let signedIn = try await client.post(
          "/signin", form: [("name", "ada"), ("password", "correct horse"), ("next", hostile)])
        #expect(signedIn.location == "/today", "next=\(hostile.debugDescription) stays on this site")
      }
      let query = try await client.fetch("/signin?next=%2F%09%2Fevil.example", headers: back.headers[.setCookie].map {
        [.cookie: String($0.split(separator: ";")[0])]
      } ?? [:])
      #expect(query.location == "/today")
    }
  }

  @Test func aFormPostFromAnotherSiteIsRefused() async throws {
    try await TestServer().test { client in
      var owner = try await client.setUpOwner()
      owner[.origin] = "https://evil.example"
      let response = try await client.post("/today/chat", form: [("day", "2026-03-08"), ("text", "hi")], headers: owner)
      #expect(response.status == .forbidden)
    }
  }

  // MARK: Today

  @Test func theTodayPageDrawsTheEnginesGridForTheWidthWithEachDaysState() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      try await server.store.setJournalEntry(try JournalEntry(day: Day("2026-03-05")!, text: "Rain"), for: user)
      let page = try await client.fetch("/today?width=372", headers: owner)
      #expect(page.status == .ok)
      let layout = try DatePickerGridLayout(width: 372)
      #expect(page.count("role=\"gridcell\"") == layout.columns * layout.rows)
      #expect(page.count("<g role=\"row\">") == 6)
      #expect(page.count("aria-selected=\"true\"") == 1)
      #expect(page.text.contains("data-day=\"2026-03-12\""), "the grid ends four days after today")
      #expect(!page.text.contains("data-day=\"2026-03-13\""))
      // An entry fills the circle with #333B40 and whitens its number when dates show.
      #expect(page.text.contains("fill=\"#333B40\""))
      #expect(page.text.contains("Today, Sunday 8 March"))

      let narrow = try await client.fetch("/today?width=320", headers: owner)
      #expect(narrow.count("role=\"gridcell\"") == (try DatePickerGridLayout(width: 320)).dayCount)
      let wrong = try await client.fetch("/today?day=2026-02-30", headers: owner)
      #expect(wrong.status == .badRequest)
      #expect(wrong.text.contains("2026-02-30"))
    }
  }

  @Test func theJournalAndChatFormsWriteTheSelectedDayAndRefuseTheFuture() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let saved = try await client.post("/today/journal", form: [("day", "2026-03-07"), ("text", "Quiet")], headers: owner)
      #expect(saved.location == "/today?day=2026-03-07#journal")
      #expect(try await server.store.journalEntry(on: Day("2026-03-07")!, for: user)?.text == "Quiet")
      _ = try await client.post("/today/journal", form: [("day", "2026-03-07"), ("text", "  ")], headers: owner)
      #expect(try await server.store.journalEntry(on: Day("2026-03-07")!, for: user) == nil, "empty text removes the entry")

      _ = try await client.post("/today/chat", form: [("day", "2026-03-07"), ("text", "Hello")], headers: owner)
      #expect(try await server.store.chatMessages(on: Day("2026-03-07")!, for: user).map(\.text) == ["Hello"])
      let future = try await client.post("/today/chat", form: [("day", "2026-03-09"), ("text", "Too soon")], headers: owner)
      #expect(future.status == .unprocessableContent)
      #expect(future.text.contains("has not come yet"))
      #expect(try await server.store.chatMessages(on: Day("2026-03-09")!, for: user).isEmpty)
      let page = try await client.fetch("/today?day=2026-03-07", headers: owner)
      #expect(page.text.contains("Hello"))
      #expect(page.text.contains("id=\"today-button\""), "another day selected shows the Today button")
    }
  }

  // MARK: Habits

  @Test func theHabitFormCreatesAndRefusesWithEverythingTypedKept() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let fields = [
        ("name", "Swim"), ("icon", ""), ("color", "#06B6D4"), ("group", "Sport"), ("frequency", "weekly"),
        ("target", "2"), ("reminder", "periodic"), ("time", "09:00"), ("start", "08:00"), ("end", "20:00"),
        ("every", "4"),
      ]
      let made = try await client.post("/habits", form: fields, headers: owner)
      #expect(made.status == .seeOther)
      let habit = try #require(try await server.store.habits(for: user, includingArchived: false).first)
      #expect(made.location == "/habits/\(habit.id.storeText)")
      #expect(habit.frequency == .weekly(targetPerWeek: 2))
      #expect(habit.group == "Sport")
      #expect(habit.reminder == .periodic(start: try WallTime(hour: 8), end: try WallTime(hour: 20), everyHours: 4))

      let again = try await client.post("/habits", form: fields, headers: owner)
      #expect(again.status == .unprocessableContent)
      #expect(again.text.contains("value=\"Swim\""))
      #expect(again.text.contains("value=\"Sport\""))
      let badColour = try await client.post(
        "/habits", form: [("name", "Walk"), ("color", "#12345")], headers: owner)
      #expect(badColour.status == .unprocessableContent)
      #expect(badColour.text.contains("color"))
      let backwards = try await client.post(
        "/habits", form: [("name", "Walk"), ("reminder", "periodic"), ("start", "20:00"), ("end", "08:00")],
        headers: owner)
      #expect(backwards.status == .unprocessableContent)
      #expect(try await server.store.habits(for: user, includingArchived: true).count == 1, "nothing else was created")
    }
  }

  /// Issue 17: `back=` after a mark is held to the same rule as `next=`.
  @Test func aMarkGoesBackOnlyToThisSite() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      for (back, location) in [("/\t/evil.example", "/today"), ("/%2F%2Fevil.example", "/today"), ("/habits", "/habits")] {
        let marked = try await client.post(
          "/habits/\(id)/mark", form: [("day", "2026-03-07"), ("status", "done"), ("back", back)], headers: owner)
        #expect(marked.location == location, "back=\(back.debugDescription)")
      }
    }
  }

  @Test func gridTapsToggleDaysAndTheDayEditorSkipsWithANote() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let habit = try await client.addHabit("Read", headers: owner)
      let id = try #require(habit["id"] as? String)
      let user = try await client.userID(owner)
      let habitID = try #require(UUID(uuidString: id))

      _ = try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-06")], headers: owner)
      #expect(try await server.store.entries(of: habitID, for: user).map(\.status) == [.done])
      _ = try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-06")], headers: owner)
      #expect(try await server.store.entries(of: habitID, for: user).isEmpty, "a second tap clears the day")

      _ = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-07"), ("status", "skipped"), ("note", "Ill")], headers: owner)
      let entries = try await server.store.entries(of: habitID, in: Day("2026-03-07")!...Day("2026-03-07")!, for: user)
      #expect(entries == [HabitEntry(day: Day("2026-03-07")!, status: .skipped, note: "Ill")])
      // A done day's note outlives a tap: the day is then noted, and a tap makes it done again.
      _ = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-05"), ("status", "done"), ("note", "Long one")], headers: owner)
      _ = try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-05")], headers: owner)
      let noted = try await server.store.entries(of: habitID, in: Day("2026-03-05")!...Day("2026-03-05")!, for: user)
      #expect(noted == [HabitEntry(day: Day("2026-03-05")!, status: .noted, note: "Long one")])
      _ = try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-05")], headers: owner)
      let again = try await server.store.entries(of: habitID, in: Day("2026-03-05")!...Day("2026-03-05")!, for: user)
      #expect(again == [HabitEntry(day: Day("2026-03-05")!, status: .done, note: "Long one")])

      let future = try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-09")], headers: owner)
      #expect(future.status == .unprocessableContent)

      let page = try await client.fetch("/habits/\(id)?day=2026-03-07&width=600", headers: owner)
      #expect(page.text.contains("Saturday 7 March 2026"))
      #expect(page.text.contains("value=\"Ill\""))
      #expect(page.count("role=\"row\"") == 7)
    }
  }

  @Test func anotherUsersHabitIsNotFoundAndStaysAsItWas() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      let member = try await client.addMember("bob", owner: owner)
      #expect(try await client.fetch("/habits/\(id)", headers: member).status == .notFound)
      #expect(try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-07")], headers: member).status == .notFound)
      #expect(try await client.post("/habits/\(id)/archive", form: [], headers: member).status == .notFound)
      #expect(try await client.post("/habits/\(id)", form: [("name", "Mine")], headers: member).status == .notFound)
      let list = try await client.fetch("/habits", headers: member)
      #expect(!list.text.contains("Read"))
      let user = try await client.userID(owner)
      let habits = try await server.store.habits(for: user, includingArchived: true)
      #expect(habits.map(\.name) == ["Read"] && habits[0].archived == false)
      #expect(try await server.store.entries(of: habits[0].id, for: user).isEmpty)
    }
  }

  @Test func habitsMoveWithinTheirGroupAndArchiveOutOfTheList() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      var ids: [String] = []
      for name in ["A", "B", "C"] {
        ids.append(try #require(try await client.addHabit(name, headers: owner)["id"] as? String))
      }
      _ = try await client.post("/habits/\(ids[2])/move", form: [("direction", "up")], headers: owner)
      #expect(try await server.store.habits(for: user, includingArchived: false).map(\.name) == ["A", "C", "B"])
      _ = try await client.post("/habits/\(ids[0])/archive", form: [], headers: owner)
      let list = try await client.fetch("/habits", headers: owner)
      #expect(list.text.contains("Archived (1)"))
      let delete = try await client.post("/habits/\(ids[1])/delete", form: [], headers: owner)
      #expect(delete.status == .unprocessableContent, "deleting needs the confirmation box")
      #expect(try await server.store.habits(for: user, includingArchived: true).count == 3)
    }
  }

  // MARK: Assets and policy

  @Test func assetsAreVersionedByContentAndRevalidateWithTheirETag() async throws {
    try await TestServer().test { client in
      let first = try await client.fetch("/assets/app.css", headers: [:])
      #expect(first.status == .ok)
      #expect(first.headers[.cacheControl] == "no-cache")
      let etag = try #require(first.headers[.eTag])
      let again = try await client.fetch("/assets/app.css", headers: [.ifNoneMatch: etag])
      #expect(again.status == .notModified)
      let version = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      let versioned = try await client.fetch("/assets/app.css?v=\(version)", headers: [:])
      #expect(versioned.headers[.cacheControl]?.contains("immutable") == true)
      let manifest = try await client.fetch("/manifest.webmanifest", headers: [:])
      #expect(manifest.headers[.contentType] == "application/manifest+json")
      #expect(try await client.fetch("/assets/nothing.js", headers: [:]).status == .notFound)
    }
  }

  /// The Content-Security-Policy allows no inline script or style; a page that used one would
  /// silently lose it in the browser.
  @Test func pagesCarryNoInlineScriptOrStyle() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      for path in ["/today", "/habits", "/habits/new", "/habits/\(id)", "/habits/\(id)/edit"] {
        let page = try await client.fetch(path, headers: owner)
        #expect(page.status == .ok, "\(path)")
        #expect(!page.text.contains(" style="), "\(path) has an inline style")
        #expect(page.count("<script") == page.count("<script src="), "\(path) has an inline script")
        #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
      }
    }
  }
}

@Suite struct DateRowPageTests {
  /// With the grid switched off, Today shows SPEC 5's 33-day row and its header instead.
  @Test func withoutTheGridTodayShowsTheDateRowAndItsHeader() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let changed = try await client.send(.patch, "/api/v1/settings", json: ["showDatePickerGrid": false], headers: owner)
      #expect(changed.status == .ok)
      _ = try await client.post("/today/chat", form: [("day", "2026-03-07"), ("text", "hi")], headers: owner)
      let page = try await client.fetch("/today?day=2026-03-01", headers: owner)
      #expect(!page.text.contains("id=\"date-grid\""))
      #expect(page.count("role=\"gridcell\"") == 33)
      #expect(page.text.contains("data-day=\"2026-02-06\""), "the row starts 30 days before today")
      #expect(page.text.contains("data-day=\"2026-03-10\""), "and ends 2 days after it")
      #expect(page.text.contains("1 Day Streak • 1 Chat • 0 Entries"))
      // The selection sits five days from the leading edge (SPEC 5).
      #expect(page.text.contains("data-scroll-to=\"2026-02-24\" data-scroll-anchor=\"leading\""))
    }
  }
}

@Suite struct PageEscapingTests {
  /// The habit cards and date circles are written in Swift, not by the template engine, so
  /// they escape what a person typed themselves.
  @Test func aHabitNameIsTextEverywhereItIsShown() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit(#"<b>Bold</b> & "quoted""#, headers: owner)["id"] as? String)
      for path in ["/habits", "/today", "/habits/\(id)"] {
        let page = try await client.fetch(path, headers: owner)
        #expect(!page.text.contains("<b>Bold"), "\(path)")
        #expect(page.text.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot;"), "\(path)")
      }
    }
  }
}
