import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// The Settings page: the settings form, the theme cookie, API tokens.
@Suite struct SettingsPageTests {
  static let valid: [(String, String)] = [
    ("timeZone", "Europe/Berlin"), ("daySwitchHour", "3"), ("firstWeekday", "monday"), ("locale", "de_DE"),
    ("showGridDates", "on"),
  ]

  @Test func savingChangesTheSettingsAndSaysSo() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let before = try await client.page("/settings", headers: owner)
      #expect(before.contains(#"name="timeZone" value="UTC""#))

      let saved = try await client.postPageForm("/settings", Self.valid, headers: owner)
      #expect(saved.status == .seeOther)
      #expect(saved.headers[.location] == "/settings?saved=settings")
      let settings = try await client.send(.get, "/api/v1/settings", headers: owner).object
      #expect(settings["timeZone"] as? String == "Europe/Berlin")
      #expect(settings["daySwitchHour"] as? Int == 3)
      #expect(settings["firstWeekday"] as? String == "monday")
      #expect(settings["locale"] as? String == "de_DE")
      #expect(settings["showDatePickerGrid"] as? Bool == false, "an unticked box is off")
      #expect(settings["showGridDates"] as? Bool == true)

      let after = try await client.page("/settings?saved=settings", headers: owner)
      #expect(after.contains("Settings saved."))
      #expect(after.contains(#"name="timeZone" value="Europe/Berlin""#))
      #expect(after.contains(#"<option value="monday" selected>"#))
    }
  }

  @Test func badValuesComeBackAsTypedWithTheirErrorsAndChangeNothing() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let before = try await client.send(.get, "/api/v1/settings", headers: owner).text
      let refused = try await client.postPageForm(
        "/settings",
        [("timeZone", "Mars/Olympus"), ("daySwitchHour", "7"), ("firstWeekday", "monday"), ("locale", "en_US")],
        headers: owner)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.headers[.contentType]?.hasPrefix("text/html") == true)
      let html = refused.text
      #expect(html.contains("2 settings were not saved"))
      #expect(html.contains(#"value="Mars/Olympus""#))
      #expect(html.contains(#"id="timeZone-error">&#39;Mars/Olympus&#39; is not an IANA time zone"#))
      #expect(html.contains(#"value="7""#))
      #expect(html.contains("must be a whole number from 0 to 6, not"))
      #expect(html.contains(#"<option value="monday" selected>"#), "the fields that were fine keep what was typed too")
      #expect(try await client.send(.get, "/api/v1/settings", headers: owner).text == before)

      let badLocale = try await client.postPageForm(
        "/settings", [("timeZone", "UTC"), ("daySwitchHour", "0"), ("firstWeekday", "sunday"), ("locale", "xx_YY")],
        headers: owner)
      #expect(badLocale.status == .unprocessableContent)
      #expect(badLocale.text.contains(#"id="locale-error""#))
      #expect(try await client.send(.get, "/api/v1/settings", headers: owner).text == before)
    }
  }

  /// 12:00 UTC is 01:00 on Monday 9 March in Auckland; with a day-switch hour of 2 that hour
  /// still belongs to Sunday the 8th.
  @Test func theDaySwitchHourMovesTodayAtOnce() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      try await client.patchSettings(["timeZone": "Pacific/Auckland"], headers: owner)
      #expect(try await client.page("/today", headers: owner).contains("Today, Monday 9 March"))
      let saved = try await client.postPageForm(
        "/settings",
        [("timeZone", "Pacific/Auckland"), ("daySwitchHour", "2"), ("firstWeekday", "sunday"), ("locale", "en_US"),
         ("showDatePickerGrid", "on")],
        headers: owner)
      #expect(saved.status == .seeOther)
      #expect(try await client.page("/today", headers: owner).contains("Today, Sunday 8 March"))
    }
  }

  @Test func theThemeIsACookieForThisDeviceOnly() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let set = try await client.postPageForm("/settings/theme", [("theme", "light")], headers: owner)
      #expect(set.status == .seeOther)
      let cookie = try #require(set.headers[.setCookie])
      #expect(cookie.hasPrefix("tally_theme=light"))
      let session = try #require(owner[.cookie])
      let html = try await client.page("/settings", headers: [.cookie: "\(session); tally_theme=light"])
      #expect(html.contains(#"class="theme-light""#))
      #expect(html.contains(#"value="light" checked"#))
      #expect(try await client.page("/settings", headers: owner).contains(#"class="theme-system""#))

      let refused = try await client.postPageForm("/settings/theme", [("theme", "neon")], headers: owner)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.headers[.setCookie] == nil)
      #expect(refused.text.contains("is not a theme"))
    }
  }

  @Test func aTokenIsShownOnceWorksAndCanBeRevoked() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let made = try await client.postPageForm("/settings/tokens", [("name", "backup script"), ("lifetime", "30")], headers: owner)
      #expect(made.status == .created)
      let html = made.text
      #expect(html.contains("Token “backup script” created."))
      let secret = try #require(Self.secret(in: html))
      let bearer: HTTPFields = [.authorization: "Bearer \(secret)"]
      #expect(try await client.send(.get, "/api/v1/me", headers: bearer).status == .ok)

      let list = try await client.page("/settings", headers: owner)
      #expect(list.contains("backup script"))
      #expect(list.contains("expires 2026-04-07"))
      #expect(!list.contains(secret), "the secret is never shown again")

      let tokens = try await client.send(.get, "/api/v1/tokens", headers: owner).array
      let id = try #require(tokens.first?["id"] as? String)
      let revoked = try await client.postPageForm("/settings/tokens/\(id)/revoke", [], headers: owner)
      #expect(revoked.status == .seeOther)
      #expect(revoked.headers[.location] == "/settings?saved=revoked#tokens")
      #expect(try await client.send(.get, "/api/v1/me", headers: bearer).status == .unauthorized)
    }
  }

  @Test func anotherUsersTokenIsNotFoundAndKeepsWorking() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let bearer = try await client.bearer(owner)
      let id = try #require(try await client.send(.get, "/api/v1/tokens", headers: owner).array.first?["id"] as? String)
      let bob = try await client.addMember("bob", owner: owner)
      let attempt = try await client.postPageForm("/settings/tokens/\(id)/revoke", [], headers: bob)
      #expect(attempt.status == .notFound)
      #expect(attempt.headers[.contentType]?.hasPrefix("text/html") == true)
      #expect(try await client.send(.get, "/api/v1/me", headers: bearer).status == .ok)
      #expect(!(try await client.page("/settings", headers: bob)).contains("tests"), "bob's page lists none of ada's tokens")
    }
  }

  @Test func aTokenWithoutANameIsRefusedNextToTheField() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let refused = try await client.postPageForm("/settings/tokens", [("name", "   "), ("lifetime", "")], headers: owner)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.text.contains(#"id="token-name-error""#))
      #expect(try await client.send(.get, "/api/v1/tokens", headers: owner).array.isEmpty)
    }
  }

  @Test func signedOutVisitorsAreSentToSignInAndChangeNothing() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let page = try await client.send(.get, "/settings")
      #expect(page.status == .seeOther)
      #expect(page.headers[.location] == "/signin?next=%2Fsettings")
      let post = try await client.postPageForm("/settings", Self.valid, headers: [:])
      #expect(post.status == .seeOther)
      #expect(try await client.send(.get, "/api/v1/settings", headers: owner).object["timeZone"] as? String == "UTC")
    }
  }

  /// The value of the read-only secret field.
  static func secret(in html: String) -> String? {
    guard let field = html.range(of: #"id="new-secret" class="secret" value=""#) else { return nil }
    let rest = html[field.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }
}
