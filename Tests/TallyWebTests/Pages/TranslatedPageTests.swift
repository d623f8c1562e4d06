import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyLocalization
import TallyServerTesting
import TallyStore
import Testing

@testable import TallyWeb

/// The pages whose words are in the catalogs speak the visitor's language whole: templates,
/// the rows and cards drawn in Swift, spoken labels, badges and the navigation around them.
/// Today is 2026-03-08, a Sunday.
@Suite struct TranslatedPageTests {
  /// Each page here moved to the catalogs whole; the others still speak English throughout.
  static let translatedPages = [
    "/today", "/today?day=2026-03-07", "/today?day=2026-03-09", "/habits", "/habits/read", "/habits/read?day=2026-03-05",
    "/habits/water?day=2026-03-08", "/habits/gym", "/habits/walk", "/statistics", "/calendar/2026-03?country=US",
    "/calendar/2026-03?country=US&day=2026-03-10", "/calendar/2026-03?country=US&day=2026-03-05",
    "/habits/new", "/habits/water/edit", "/journal", "/journal?q=quiet", "/journal?q=nothing", "/settings", "/shows", "/shows/severance", "/prices",
  ]

  /// Habits of every kind and state, a pause of one and a vacation ahead, a journal entry and
  /// messages: every part of the pages that has words shows. Returns each habit's id by its
  /// name in lower case, for paths that name a habit by it.
  @discardableResult
  static func fill(_ client: some TestClientProtocol, owner: HTTPFields) async throws -> [String: String] {
    var ids: [String: String] = [:]
    func add(_ name: String, _ fields: [String: Any] = [:]) async throws -> String {
      let made = try await client.addHabit(name, fields.merging(["createdDay": "2026-03-01"]) { a, _ in a }, headers: owner)
      ids[name.lowercased()] = try #require(made["id"] as? String)
      return ids[name.lowercased()]!
    }
    let read = try await add("Read", ["reminder": ["type": "single", "time": "08:30"]])
    _ = try await add("Swim", ["frequency": ["type": "weekly", "targetPerWeek": 3], "group": "Sport"])
    _ = try await add("Gym", ["frequency": ["type": "weekdays", "weekdays": ["monday", "thursday"]]])
    _ = try await add("Walk", ["frequency": ["type": "timesInDays", "times": 2, "days": 10]])
    let water = try await add(
      "Water", ["measure": ["unit": "glasses", "target": 8], "frequency": ["type": "monthly", "timesPerMonth": 1]])
    let stretch = try await add("Stretch")
    let old = try await add("Old")
    _ = try await client.post("/habits/\(old)/archive", form: [], headers: owner)
    _ = try await client.post("/habits/\(water)/mark", form: [("day", "2026-03-08"), ("status", "done"), ("amount", "3")], headers: owner)
    _ = try await client.post(
      "/habits/\(stretch)/mark", form: [("day", "2026-03-08"), ("status", "skipped"), ("note", "sore")], headers: owner)
    _ = try await client.post("/habits/\(read)/mark", form: [("day", "2026-03-05"), ("status", "done")], headers: owner)
    _ = try await client.post("/pauses", form: [("habit", read), ("from", "2026-03-07"), ("back", "/today")], headers: owner)
    _ = try await client.post("/pauses", form: [("from", "2026-03-20"), ("until", "2026-03-27"), ("back", "/today")], headers: owner)
    _ = try await client.post("/today/journal", form: [("day", "2026-03-08"), ("text", "A quiet day")], headers: owner)
    _ = try await client.post("/today/chat", form: [("day", "2026-03-07"), ("text", "hello there")], headers: owner)
    _ = try await client.post("/today/chat", form: [("day", "2026-03-08"), ("text", "and again")], headers: owner)
    let netflix: [String: Any] = ["id": 8, "name": "Netflix"]
    let hulu: [String: Any] = ["id": 15, "name": "Hulu"]
    ids["severance"] = try await client.addAiringShow(
      "Severance", providers: ["US": [netflix, hulu]], days: ["2026-03-05", "2026-03-10"], headers: owner)
    _ = try await client.addAiringShow("Bake Off", providers: [:], days: ["2026-03-10"], headers: owner)
    return ids
  }

  static func with(_ headers: HTTPFields, cookie: String? = nil, accept: String? = nil) -> HTTPFields {
    var headers = headers
    if let cookie { headers[.cookie] = [headers[.cookie], cookie].compactMap { $0 }.joined(separator: "; ") }
    if let accept { headers[.acceptLanguage] = accept }
    return headers
  }

  /// Rendered in the pseudo-locale, Today shows no word outside the catalogs' markers but the
  /// user's own data, numbers, and the names of days and months (which come from the locale).
  @Test(arguments: translatedPages)
  func aPageInThePseudoLocaleShowsNoTextOutsideTheCatalogs(path: String) async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let ids = try await Self.fill(client, owner: owner)
      let path = ids.reduce(path) {
        $0.replacingOccurrences(of: "/habits/\($1.key)", with: "/habits/\($1.value)")
          .replacingOccurrences(of: "/shows/\($1.key)", with: "/shows/\($1.value)")
      }
      let page = try await client.fetch(path, headers: Self.with(owner, cookie: "tally_language=qps"))
      #expect(page.status == .ok)
      let userData: Set = [
        "ada", "Tally", "Read", "Swim", "Gym", "Walk", "Water", "Stretch", "Old", "Sport", "glasses", "sore",
        "A quiet day", "hello there", "and again", "Severance", "Bake Off", "Netflix", "Hulu", "Episode 1", "Episode 2",
        "S01E01", "S01E02", "The Movie Database (TMDB)", "United States", "A", "quiet", "day",
      ]
      // Names and code that no language translates: each language's own name, services, commands.
      let names = Set(Language.allCases.map(\.endonym)).union([
        "ntfy", "Gotify", "https://ntfy.sh/my-topic", "Authorization: Bearer …", "tally import", "tally import FILE",
        "tally episodes import URL", "BEGIN:VCALENDAR…",
      ])
      let services = ProviderChoice.common.map(\.1).sorted { $0.count > $1.count }
      let outside = PageLanguageTests.visibleTexts(page.text).filter { text in
        if names.contains(text) { return false }
        // Services by name and countries and currencies by code ("US · Netflix", "USD").
        let named = services.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
        if named.replacing(/\b[A-Z]{2,3}\b/, with: "").allSatisfy({ !$0.isLetter }) { return false }
        // A colour's code is what a swatch is called.
        if text.wholeMatch(of: /#[0-9A-F]{6}/) != nil { return false }
        // Formatted names before the user's data, which may hide inside one ("ada" in "Canada").
        var rest = Self.withoutFormattedNames(PageLanguageTests.unmarked(text))
        for data in userData { rest = rest.replacingOccurrences(of: data, with: "") }
        return !Self.isFormatted(rest)
      }
      #expect(outside.isEmpty, "text outside the catalogs on \(path): \(outside)")
    }
  }

  /// What is left of a text once its marked parts, the names the locale gives (days, months,
  /// countries) and the user's data are gone is fine when it has no letters (numbers, prices,
  /// separators, arrows, icons).
  static let countries = Locale.Region.isoRegions.compactMap {
    Locale(identifier: "en").localizedString(forRegionCode: $0.identifier)
  }

  /// The text without the names the locale formats: days, months, countries, and the AM and
  /// PM of a 12-hour clock.
  static func withoutFormattedNames(_ text: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US")
    // Whole names before their abbreviations, which they contain.
    let names =
      countries + formatter.weekdaySymbols + formatter.monthSymbols + formatter.shortWeekdaySymbols
      + formatter.shortMonthSymbols + [formatter.amSymbol, formatter.pmSymbol]
    // A weekday's letter only as a whole text: as a part, it would take letters out of words.
    if formatter.veryShortWeekdaySymbols.contains(text) { return "" }
    return names.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
  }

  static func isFormatted(_ rest: String) -> Bool { !rest.contains(where: \.isLetter) }

  @Test func todaySpeaksTheBrowsersLanguageAndTheChosenOneOverIt() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      try await Self.fill(client, owner: owner)
      let english = try await client.fetch("/today", headers: owner).text
      #expect(english.contains(#"<html lang="en" dir="ltr""#))
      #expect(english.contains("Today, Sunday 8 March"))

      let german = try await client.fetch("/today", headers: Self.with(owner, accept: "de-DE,de;q=0.9,en;q=0.5")).text
      #expect(german.contains(#"<html lang="de" dir="ltr""#))
      // Days named by German's own calendar words, in its own order; no English one left.
      #expect(german.contains("8. März"))
      #expect(!german.contains("March") && !german.contains("Sunday"))
      #expect(german.contains(Self.text("nav.habits", in: .german)))
      #expect(german.contains(Self.text("today.resumeAll", in: .german)) || german.contains(Self.text("today.pauseAll", in: .german)))

      // The cookie wins over the header, and the page kept for English is not the one served.
      let arabic = try await client.fetch(
        "/today", headers: Self.with(owner, cookie: "tally_language=ar", accept: "de")).text
      #expect(arabic.contains(#"<html lang="ar" dir="rtl""#))
      #expect(arabic.contains(Self.text("today.journal", in: .arabic)))
      #expect(try await client.fetch("/today", headers: owner).text == english)
    }
  }

  /// Settings offers "as the browser asks" and every language named in itself; the choice is
  /// kept in the account, so it wins over this device's cookie and the browser, and this
  /// device's cookie follows it for the sign-in page. Back to the browser, the cookie goes.
  @Test func settingsKeepsTheLanguageInTheAccount() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let settings = try await client.fetch("/settings", headers: owner).text
      #expect(settings.contains(#"<option value="" selected>\#(Self.text("settings.languageBrowser", in: .english))</option>"#))
      for language in Language.allCases {
        #expect(settings.contains(#"<option value="\#(language.code)" lang="\#(language.code)">\#(language.endonym)</option>"#))
      }
      let chosen = try await client.postPageForm("/settings/language", [("language", "ja")], headers: owner)
      #expect(chosen.status == .seeOther)
      #expect(chosen.headers[.location] == "/settings?saved=language#appearance")
      #expect(chosen.headers[.setCookie]?.split(separator: ";").first == "tally_language=ja")
      #expect(try await server.store.user(named: "ada").settings.language == .japanese)
      // Another device, whose cookie and browser ask for other languages.
      let today = try await client.fetch("/today", headers: Self.with(owner, cookie: "tally_language=ar", accept: "de")).text
      #expect(today.contains(#"<html lang="ja" dir="ltr""#))
      #expect(today.contains(Self.text("nav.habits", in: .japanese)))
      let saved = try await client.fetch("/settings?saved=language", headers: owner).text
      #expect(saved.contains(#"<option value="ja" lang="ja" selected>"#))
      #expect(saved.contains(Self.text("settings.notice.language", in: .japanese)))

      let browser = try await client.postPageForm("/settings/language", [("language", "")], headers: owner)
      #expect(browser.headers[.setCookie]?.contains("Max-Age=0") == true)
      #expect(try await server.store.user(named: "ada").settings.language == nil)
      let german = try await client.fetch("/today", headers: Self.with(owner, accept: "de")).text
      #expect(german.contains(#"<html lang="de" dir="ltr""#))

      // A code Tally does not speak: the form again, the field named, nothing changed.
      let before = try await server.store.user(named: "ada")
      let refused = try await client.postPageForm("/settings/language", [("language", "tlh")], headers: owner)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.text.contains(#"id="language-error""#))
      #expect(refused.text.contains("tlh"))
      #expect(try await server.store.user(named: "ada") == before)
    }
  }

  /// Set up from a browser that asks for British English: the account's locale is en_GB and
  /// its week starts on Monday; its language still follows the browser.
  @Test func aNewAccountTakesTheBrowsersLocaleAndWeek() async throws {
    let server = try TestServer()
    try await server.test { client in
      let made = try await client.postPageForm(
        "/setup", [("name", "ada"), ("password", "correct horse"), ("timeZone", "Europe/London")],
        headers: [.acceptLanguage: "en-GB,en;q=0.8"])
      #expect(made.status == .seeOther)
      let settings = try await server.store.user(named: "ada").settings
      #expect(settings.locale == "en_GB")
      #expect(settings.firstWeekday == .monday)
      #expect(settings.language == nil)
    }
  }

  /// The error page speaks the visitor's language: its heading by the status, the problem's
  /// stable code; the server's reason stays the English sentence it is, marked as English.
  @Test func theErrorPageSpeaksTheVisitorsLanguage() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let path = "/habits/00000000-0000-0000-0000-000000000000"
      let german = try await client.fetch(path, headers: Self.with(owner, accept: "de"))
      #expect(german.status == .notFound)
      #expect(german.text.contains(#"<html lang="de" dir="ltr""#))
      #expect(german.text.contains(#"<h1 id="error-title">\#(Self.text("error.title.404", in: .german))</h1>"#))
      #expect(german.text.contains(Self.text("error.inEnglish", in: .german)))
      #expect(german.text.contains(#"<p role="alert" lang="en">"#))
      #expect(german.text.contains(Self.text("error.back", in: .german)))

      let refused = try await client.fetch("/language?code=tlh&next=/signin", headers: [.acceptLanguage: "ar"])
      #expect(refused.status == .unprocessableContent)
      #expect(refused.text.contains(#"<html lang="ar" dir="rtl""#))
      #expect(refused.text.contains(Self.text("error.title.422", in: .arabic)))

      let english = try await client.fetch(path, headers: owner).text
      #expect(english.contains(#"<h1 id="error-title">Not found</h1>"#))
      #expect(!english.contains(Self.text("error.inEnglish", in: .english)))
      #expect(english.contains(#"<p role="alert">"#))
    }
  }

  /// The install manifest speaks the device's language too, and a cached copy in another
  /// language is not taken for it.
  @Test func theInstallManifestSpeaksTheLanguageOfTheDevice() async throws {
    try await TestServer().test { client in
      let english = try await client.fetch("/manifest.webmanifest", headers: [:])
      let german = try await client.fetch("/manifest.webmanifest", headers: [.acceptLanguage: "de"])
      let arabic = try await client.fetch("/manifest.webmanifest", headers: [.cookie: "tally_language=ar"])
      for (response, language) in [(english, Language.english), (german, .german), (arabic, .arabic)] {
        #expect(response.headers[.contentType] == "application/manifest+json")
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
        #expect(fields["lang"] as? String == language.code)
        #expect(fields["dir"] as? String == (language == .arabic ? "rtl" : "ltr"))
        let description = PageLanguages.shared.translator(for: language).text("manifest.description")
        #expect(fields["description"] as? String == description)
        #expect(fields["start_url"] as? String == "/today", "the rest of the shipped file is kept")
      }
      let etag = try #require(german.headers[.eTag])
      #expect(etag != english.headers[.eTag])
      let again = try await client.fetch("/manifest.webmanifest", headers: [.acceptLanguage: "de", .ifNoneMatch: etag])
      #expect(again.status == .notModified)
      let other = try await client.fetch("/manifest.webmanifest", headers: [.ifNoneMatch: etag])
      #expect(other.status == .ok, "English is not the German copy")
    }
  }

  static func text(_ key: String, in language: Language) -> String {
    HTMLText.escaped(PageLanguages.shared.translator(for: language).text(key))
  }
}
