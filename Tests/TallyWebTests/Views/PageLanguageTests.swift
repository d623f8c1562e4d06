import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyOIDC
import TallyServerTesting
import Testing

@testable import TallyWeb

/// The pages a visitor sees before signing in speak the visitor's language, from the
/// catalogs in `Resources/locales`, and every shipped catalog holds what English does.
@Suite struct PageLanguageTests {
  @Test(arguments: Language.allCases.filter { $0 != .english })
  func everyShippedLanguageHasEveryStringOfEnglish(_ language: Language) throws {
    let translations = PageLanguages.shared
    let catalog = translations.catalog(for: language)
    let problems = CatalogParity.problems(in: catalog, rules: translations.rules(for: language), english: translations.english)
    #expect(problems.isEmpty, "\(language.code).json: \(problems.map(\.description))")
  }

  /// The habit cards look their sentences up once per page; in every shipped language and for
  /// every count up to a few hundred, they say what a lookup per card says.
  @Test(arguments: Language.allCases)
  func sentencesLookedUpOnceSayWhatEachLookupSays(_ language: Language) {
    let t = PageLanguages.shared.translator(for: language)
    let keys = StreakUnit.allCases.map { "streak.\($0.rawValue)" } + ["habits.miniGrid"]
    for key in keys {
      let sentence = t.pluralSentence(key)
      for count in Array(0...300) + [1_001, 12_345] {
        let values: KeyValuePairs = ["weeks": "26", "done": "3"]
        #expect(sentence(count: count, values) == t.plural(key, count: count, ["weeks": "26", "done": "3"]))
      }
    }
    let values: KeyValuePairs = ["done": "2", "goal": "7", "progress": "2 / 7", "period": "p"]
    for key in ["habits.progress", "habits.progressIn"] {
      #expect(t.sentence(key)(values) == t.text(key, ["done": "2", "goal": "7", "progress": "2 / 7", "period": "p"]))
    }
  }

  /// Rendered in the pseudo-locale, which wraps every catalog string in ⟦…⟧, the sign-in
  /// and set-up pages show no text outside the markers but the product's name, the names of
  /// the languages (each in itself) and the provider's name: a string someone wrote into the
  /// page instead of the catalog fails here.
  @Test(arguments: [true, false])
  func theSignInPagesShowNoTextOutsideTheCatalogs(setUp: Bool) throws {
    let provider = OIDCSettings(
      client: .init(issuer: try .init("https://id.example.org"), clientID: "c", clientSecret: "s", redirectURI: ""),
      rules: .init(), displayName: "HomeID")
    let page = AccountPages.formPage(
      setUp: setUp, speech: .pseudo, name: "", next: "/today", timeZone: "UTC", error: nil,
      provider: provider, request: Self.request)
    let allowed = Set(["Tally", "HomeID"] + Language.allCases.map(\.endonym))
    let outside = Self.visibleTexts(page.html).filter { !allowed.contains($0) && !Self.marked($0) }
    #expect(outside.isEmpty, "text outside the catalogs: \(outside)")
  }

  /// The pages signed-in people reach through the provider's features: the invitation page's
  /// main part, and Settings' provider section, take every word from the catalogs too.
  @Test func theProviderPagesTakeTheirWordsFromTheCatalogs() throws {
    let invite = InviteLink(link: "https://tally.example/signin/oidc?invite=x", expires: "2026-12-12 22:24", speech: .pseudo)
    let page = Templates.shared.page(
      "invite-link", title: invite.title, section: .settings, user: nil, request: Self.request, content: invite,
      speech: .pseudo)
    let main = try #require(page.html.firstMatch(of: /<main[^>]*>(.*)<\/main>/.dotMatchesNewlines())?.1)
    let outside = Self.visibleTexts(String(main)).filter { !Self.marked($0) }
    #expect(outside.isEmpty, "text outside the catalogs: \(outside)")
    #expect(main.contains("2026-12-12 22:24"), "the date is put into the sentence")

    let section = SettingsModel.SignIn(provider: "HomeID", linked: false, isOwner: true, speech: .pseudo)
    let words = [
      section.heading, section.linkedText, section.linkHelp, section.linkButton, section.invitations,
      section.invitationsHelp, section.inviteButton,
    ]
    #expect(words.allSatisfy(Self.marked), "\(words)")
    #expect(section.linkButton.contains("HomeID"))
  }

  @Test func aBrowsersLanguageChoosesTheSignInPagesAndACookieOverridesIt() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      let german = try await client.send(.get, "/signin", headers: [.acceptLanguage: "de-CH, de;q=0.9, en;q=0.5"])
      #expect(german.text.contains(#"<html lang="de" dir="ltr""#))
      #expect(german.text.contains(PageLanguages.speech(.german).translator.text("signIn.lead")))
      let arabic = try await client.send(.get, "/signin", headers: [.acceptLanguage: "ar-EG"])
      #expect(arabic.text.contains(#"<html lang="ar" dir="rtl""#))
      let none = try await client.send(.get, "/signin", headers: [.acceptLanguage: "xx, *;q=0.1"])
      #expect(none.text.contains(#"<html lang="en" dir="ltr""#) && none.text.contains("Your days are waiting."))

      let chosen = try await client.send(.get, "/language?code=ja&next=%2Fsignin%3Fnext%3D%252Fhabits", headers: [:])
      #expect(chosen.status == .seeOther)
      #expect(chosen.headers[.location] == "/signin?next=%2Fhabits")
      let cookie = try #require(chosen.headers[.setCookie]?.split(separator: ";").first.map(String.init))
      #expect(cookie == "tally_language=ja")
      let japanese = try await client.send(.get, "/signin", headers: [.cookie: cookie, .acceptLanguage: "de"])
      #expect(japanese.text.contains(#"<html lang="ja" dir="ltr""#))

      let wrong = try await client.postPageForm("/signin", [("name", "ada"), ("password", "wrong horse")], headers: [.cookie: cookie])
      #expect(wrong.status == .unauthorized)
      #expect(wrong.text.contains(PageLanguages.speech(.japanese).translator.text("accountError.wrongNameOrPassword")))
    }
  }

  @Test func anUnknownLanguageIsRefusedWithTheCodesThereAre() async throws {
    try await TestServer().test { client in
      let refused = try await client.send(.get, "/language?code=klingon&next=%2Fsignin", headers: [:])
      #expect(refused.status == .unprocessableContent)
      #expect(refused.text.contains("klingon") && refused.text.contains("zh-Hans") && refused.text.contains("pt-BR"))
      #expect(refused.headers[.setCookie] == nil)
    }
  }

  /// Every word a script says (`say("key"…)` in the web assets) is in the English catalog's
  /// `script` section, and a page hands its scripts those words in its language.
  @Test func everyWordAScriptSaysIsInTheCatalogAndOnThePage() throws {
    let english = PageLanguages.shared.translator(for: .english).sources(under: "script")
    var said = Set<String>()
    for (name, asset) in Assets.shared.files where name.hasSuffix(".js") {
      let text = String(buffer: asset.bytes)
      for match in text.matches(of: /say\("([A-Za-z]+)"/) { said.insert(String(match.1)) }
    }
    #expect(said.count >= 15, "the scripts' words were found: \(said.sorted())")
    let missing = said.filter { english[$0] == nil && english["\($0)_other"] == nil }
    #expect(missing.isEmpty, "not in en.json's script section: \(missing.sorted())")

    let german = PageLanguages.speech(.german)
    let words = try JSONDecoder().decode([String: String].self, from: Data(Self.decoded(german.scriptWords.html).utf8))
    #expect(words["offline"] == PageLanguages.shared.translator(for: .german).text("script.offline"))
    #expect(Set(words.keys).isSuperset(of: english.keys))
  }

  static let request = Request(
    head: HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/"), body: RequestBody(buffer: ByteBuffer()))

  static func marked(_ text: String) -> Bool {
    text.hasPrefix(PseudoLocalization.open) && text.hasSuffix(PseudoLocalization.close)
  }

  /// The text with every marked part taken out, inner ones first (a title's page name sits
  /// inside its pattern's markers).
  static func unmarked(_ text: String) -> String {
    var text = text
    while let inner = text.firstRange(of: /⟦[^⟦⟧]*⟧/) { text.removeSubrange(inner) }
    return text
  }

  /// The texts a reader meets: text between tags (outside scripts and styles) and the
  /// attributes read aloud or shown, each trimmed, empty ones left out.
  static func visibleTexts(_ html: String) -> [String] {
    var texts: [String] = []
    let body = html.replacing(/<(script|style)[^>]*>.*?<\/\1>/.dotMatchesNewlines(), with: "")
    for match in body.matches(of: /(?:aria-label|title|placeholder|alt)="([^"]*)"/) { texts.append(String(match.1)) }
    for match in body.matches(of: />([^<]+)</) { texts.append(String(match.1)) }
    return texts.map { decoded($0).trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty && $0 != "·" }
  }

  static func decoded(_ text: String) -> String {
    text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
