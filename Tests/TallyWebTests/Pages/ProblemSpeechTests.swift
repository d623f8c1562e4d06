import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyLocalization
import TallyServerTesting
import TallyStore
import Testing

@testable import TallyWeb

/// A refusal a person meets is said in their language: the habit form beside its field, the
/// error page, and the API's `detail` (which the page's scripts show); the problem's `code`
/// and `values` stay the same in every language. Today is 2026-03-08.
@Suite struct ProblemSpeechTests {
  static func sentence(_ kind: ValidationError.Kind, _ values: [String: String] = [:], in language: Language) -> String {
    let rule = ValidationError(field: "x", rule: "", kind: kind, values: values)
    return ProblemSpeech.sentence(for: rule, in: PageLanguages.shared.translator(for: language)) ?? ""
  }

  @Test func everyKindButOtherHasASentenceInEveryLanguage() throws {
    #expect(ProblemSpeech.sentence(for: ValidationError(field: "x", rule: "y"), in: PageLanguages.speech(.german).translator) == nil)
    let values = ["max": "100", "min": "1", "length": "120", "value": "abc", "day": "2026-03-09", "name": "Read"]
    for language in Language.allCases {
      let missing = PageLanguages.shared.translator(for: language)
      for kind in ValidationError.Kind.allCases where kind != .other {
        let key = "problem.\(kind.rawValue)"
        #expect(missing.hasText(key) || missing.hasText(key + "_other") || missing.hasText(key + "_one"), "\(language.code): \(key)")
        let said = Self.sentence(kind, values, in: language)
        #expect(!said.isEmpty && !said.contains("{{") && said != Translator.missingText, "\(language.code) \(kind): \(said)")
      }
    }
  }

  /// The limit is what a sentence counts by: Polish says 100 "znaków" with the many form.
  @Test func aLimitPicksTheLanguagesPluralForm() {
    let polish = Self.sentence(.tooLong, ["max": "100", "length": "120"], in: .polish)
    let template = PageLanguages.shared.translator(for: .polish).text("problem.tooLong_many", ["count": "100", "length": "120"])
    #expect(polish == template)
    #expect(Self.sentence(.tooLong, ["max": "1", "length": "2"], in: .english).contains("at most 1 character,"))
  }

  @Test func theHabitFormSaysItsRefusalInThePagesLanguage() async throws {
    let server = try TestServer()
    try await server.test { client in
      var owner = try await client.setUpOwner()
      owner[.acceptLanguage] = "de"
      _ = try await client.addHabit("Lesen", headers: owner)
      let blank = try await client.postPageForm("/habits", [("name", "   "), ("reminder", "none")], headers: owner)
      #expect(blank.status == .unprocessableContent)
      #expect(blank.text.contains(#"data-error-field="name""#))
      #expect(blank.text.contains(HTMLText.escaped(Self.sentence(.empty, in: .german))))

      let taken = try await client.postPageForm("/habits", [("name", "Lesen"), ("reminder", "none")], headers: owner)
      #expect(taken.status == .unprocessableContent)
      #expect(taken.text.contains(HTMLText.escaped(Self.sentence(.taken, ["name": "Lesen"], in: .german))))

      let goal = try await client.postPageForm(
        "/habits", [("name", "Laufen"), ("kind", "measurable"), ("goal", "fünf"), ("reminder", "none")], headers: owner)
      #expect(goal.text.contains(HTMLText.escaped(Self.sentence(.notANumber, ["value": "fünf"], in: .german))))
      #expect(try await server.store.habits(for: client.userID(owner), includingArchived: true).count == 1)
    }
  }

  /// A day after today refused by the journal: the error page says why in Japanese, with no
  /// English reason left to introduce.
  @Test func theErrorPageSaysAKnownRuleInThePagesLanguage() async throws {
    try await TestServer().test { client in
      var owner = try await client.setUpOwner()
      owner[.acceptLanguage] = "ja"
      let future = try await client.postPageForm("/today/chat", [("day", "2026-03-09"), ("text", "Später")], headers: owner)
      #expect(future.status == .unprocessableContent)
      #expect(future.text.contains(HTMLText.escaped(Self.sentence(.inFuture, ["day": "2026-03-09"], in: .japanese))))
      #expect(!future.text.contains(TranslatedPageTests.text("error.inEnglish", in: .japanese)))
      #expect(!future.text.contains(#"lang="en""#))
    }
  }

  /// The API's `detail` follows `Accept-Language` (or the device's cookie); `code`, `values`,
  /// `field` and the status do not, and a client asking for nothing gets the English sentence.
  @Test func theAPIsDetailFollowsTheLanguageAndItsCodeDoesNot() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let long = String(repeating: "x", count: 120)
      var answers: [String: [String: Any]] = [:]
      let askers: [(String, String?, String?)] = [("en", nil, nil), ("de", "de-DE,de;q=0.9", nil), ("ar", "de", "tally_language=ar")]
      for (name, accept, cookie) in askers {
        let headers = TranslatedPageTests.with(owner, cookie: cookie, accept: accept)
        let refused = try await client.send(.post, "/api/v1/habits", json: ["name": long], headers: headers)
        #expect(refused.status == .unprocessableContent)
        answers[name] = refused.object
      }
      for answer in answers.values {
        #expect(answer["code"] as? String == "tooLong")
        #expect(answer["values"] as? [String: String] == ["max": "100", "length": "120"])
        #expect(answer["field"] as? String == "name")
      }
      #expect(answers["en"]?["detail"] as? String == "The name must be at most 100 characters (this one has 120).")
      #expect(answers["de"]?["detail"] as? String == Self.sentence(.tooLong, ["max": "100", "length": "120"], in: .german))
      #expect(answers["ar"]?["detail"] as? String == Self.sentence(.tooLong, ["max": "100", "length": "120"], in: .arabic))

      let unknown = try await client.send(.get, "/api/v1/habits/nope", headers: TranslatedPageTests.with(owner, accept: "de"))
      #expect(unknown.object["code"] == nil)
    }
  }
}
