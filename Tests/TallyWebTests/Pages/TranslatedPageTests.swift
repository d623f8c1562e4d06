import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyLocalization
import TallyServerTesting
import Testing

@testable import TallyWeb

/// The pages whose words are in the catalogs speak the visitor's language whole: templates,
/// the rows and cards drawn in Swift, spoken labels, badges and the navigation around them.
/// Today is 2026-03-08, a Sunday.
@Suite struct TranslatedPageTests {
  /// Each page here moved to the catalogs whole; the others still speak English throughout.
  static let translatedPages = ["/today", "/today?day=2026-03-07", "/today?day=2026-03-09", "/habits"]

  /// Habits of every kind and state, a pause of one and a vacation ahead, a journal entry and a
  /// message: every part of the page that has words shows.
  static func fill(_ client: some TestClientProtocol, owner: HTTPFields) async throws {
    let read = try #require(try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: owner)["id"] as? String)
    _ = try await client.addHabit(
      "Swim", ["frequency": ["type": "weekly", "targetPerWeek": 3], "createdDay": "2026-03-01", "group": "Sport"],
      headers: owner)
    let old = try #require(try await client.addHabit("Old", ["createdDay": "2026-03-01"], headers: owner)["id"] as? String)
    _ = try await client.post("/habits/\(old)/archive", form: [], headers: owner)
    _ = try await client.addHabit(
      "Gym", ["frequency": ["type": "weekdays", "weekdays": ["monday"]], "createdDay": "2026-03-01"], headers: owner)
    _ = try await client.addHabit(
      "Walk", ["frequency": ["type": "timesInDays", "times": 2, "days": 10], "createdDay": "2026-03-01"], headers: owner)
    let water = try #require(
      try await client.addHabit(
        "Water", ["measure": ["unit": "glasses", "target": 8], "frequency": ["type": "monthly", "timesPerMonth": 1],
        "createdDay": "2026-03-01"], headers: owner)["id"] as? String)
    let stretch = try #require(try await client.addHabit("Stretch", ["createdDay": "2026-03-01"], headers: owner)["id"] as? String)
    _ = try await client.post("/habits/\(water)/mark", form: [("day", "2026-03-08"), ("status", "done"), ("amount", "3")], headers: owner)
    _ = try await client.post(
      "/habits/\(stretch)/mark", form: [("day", "2026-03-08"), ("status", "skipped"), ("note", "sore")], headers: owner)
    _ = try await client.post("/pauses", form: [("habit", read), ("from", "2026-03-07"), ("back", "/today")], headers: owner)
    _ = try await client.post("/pauses", form: [("from", "2026-03-20"), ("until", "2026-03-27"), ("back", "/today")], headers: owner)
    _ = try await client.post("/today/journal", form: [("day", "2026-03-08"), ("text", "A quiet day")], headers: owner)
    _ = try await client.post("/today/chat", form: [("day", "2026-03-07"), ("text", "hello there")], headers: owner)
    _ = try await client.post("/today/chat", form: [("day", "2026-03-08"), ("text", "and again")], headers: owner)
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
      try await Self.fill(client, owner: owner)
      let page = try await client.fetch(path, headers: Self.with(owner, cookie: "tally_language=qps"))
      #expect(page.status == .ok)
      let userData: Set = [
        "ada", "Tally", "Read", "Swim", "Gym", "Walk", "Water", "Stretch", "Old", "Sport", "glasses", "A quiet day",
        "hello there", "and again",
      ]
      let outside = PageLanguageTests.visibleTexts(page.text).filter { text in
        var rest = PageLanguageTests.unmarked(text)
        for data in userData { rest = rest.replacingOccurrences(of: data, with: "") }
        return !Self.isFormatted(rest)
      }
      #expect(outside.isEmpty, "text outside the catalogs on \(path): \(outside)")
    }
  }

  /// What is left of a text once its marked parts and the user's data are gone is fine when it
  /// is only numbers, separators, arrows, and English names of days and months.
  static func isFormatted(_ rest: String) -> Bool {
    let names = DateFormatter().weekdaySymbols + DateFormatter().monthSymbols
    var rest = rest
    for name in names { rest = rest.replacingOccurrences(of: name, with: "") }
    return rest.allSatisfy { $0.isNumber || $0.isWhitespace || ",.:·•()–-/↑↓←→".contains($0) }
  }

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

  static func text(_ key: String, in language: Language) -> String {
    HTMLText.escaped(PageLanguages.shared.translator(for: language).text(key))
  }
}
