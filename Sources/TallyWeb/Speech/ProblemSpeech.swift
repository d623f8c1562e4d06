import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization

/// A broken rule in a language (`problem.<kind>` in the catalogs, filled with the rule's
/// values): what the habit form, the error page and the API's `detail` say when the rule's
/// kind is known. Rules of kind `other` keep the server's English sentence.
public enum ProblemSpeech {
  static func sentence(for rule: ValidationError?, in translator: Translator) -> String? {
    guard let rule, rule.kind != .other else { return nil }
    let key = "problem.\(rule.kind.rawValue)"
    // A limit is what a sentence counts by ("at most 100 characters").
    if let limit = rule.values["max"].flatMap(Int.init), translator.hasText(key + "_other") {
      return translator.plural(key, count: limit, rule.values)
    }
    return translator.text(key, rule.values)
  }

  /// The problem with its `detail` in the language the request asks for (the device's choice,
  /// else `Accept-Language`), as the pages choose for a visitor; English keeps the server's
  /// own sentence, and status, field and code never change.
  public static func translated(_ problem: Problem, for request: Request) -> Problem {
    translated(problem, into: PageLanguages.visitor(request))
  }

  static func translated(_ problem: Problem, into language: Language) -> Problem {
    guard language != .english,
      let sentence = sentence(for: problem.rule, in: PageLanguages.speech(language).translator)
    else { return problem }
    var translated = problem
    translated.detail = sentence
    return translated
  }
}
