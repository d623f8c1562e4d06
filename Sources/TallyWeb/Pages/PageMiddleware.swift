import Foundation
import Hummingbird
import Logging
import TallyAccounts
import TallyHTTP
import TallyLocalization
import TallyStore

/// In front of every page: a visitor who is not signed in is sent to sign in (or, on a new
/// server, to set-up) and brought back afterwards; an error becomes a page that says what
/// went wrong, in place of the API's problem JSON.
struct PageMiddleware: RouterMiddleware {
  typealias Context = AppRequestContext
  let services: AppServices

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard context.user != nil else {
      if try await services.accounts.needsSetUp() { return .seeOther("/setup") }
      let back = request.method == .get ? request.uri.description : "/today"
      let encoded = back.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/today"
      return .seeOther("/signin?next=\(encoded)")
    }
    do {
      return try await next(request, context)
    } catch {
      let problem: Problem
      if let known = Problem.from(error) {
        problem = known
      } else {
        context.logger.error(
          "page failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
        problem = Problem(.internalServerError, "The server failed; the error is in its log.")
      }
      return try ErrorPage.response(problem, user: context.user, request: request, context: context)
    }
  }
}

/// A page saying what went wrong, with the status the API would have used, in the visitor's
/// language. Its heading is the status's (`error.title.<status>`); the reason is the broken
/// rule's sentence when its kind is known (``ProblemSpeech``), else the server's English
/// sentence, shown as such (`lang="en"`, introduced by `error.inEnglish`) on a page in another
/// language.
enum ErrorPage {
  struct Content: Sendable {
    let title: String
    /// "The server says, in English:", on a page in another language.
    let inEnglish: String?
    let detail: String
    let back: String
  }

  static func response(
    _ problem: Problem, user: User?, request: Request, context: some RequestContext, back: String? = nil
  ) throws -> Response {
    let speech = PageLanguages.speech(for: request, user: user)
    let t = speech.translator
    let titled = "error.title.\(problem.status.code)"
    let sentence = ProblemSpeech.sentence(for: problem.rule, in: t)
    let content = Content(
      title: t.text(t.hasText(titled) ? titled : "error.title.other"),
      inEnglish: sentence != nil || speech.lang == Language.english.code ? nil : t.text("error.inEnglish"),
      detail: sentence ?? problem.detail,
      back: back
        ?? (request.method == .get ? "/today" : AccountPages.safeNext(request.headers[.referer].flatMap(pathOnly))))
    return try Templates.shared.page(
      "error", title: content.title, section: nil, user: user, request: request, content: content,
      status: problem.status, speech: speech
    ).response(from: request, context: context)
  }

  /// The path and query of a same-site referrer; the policy sends no more across sites.
  private static func pathOnly(_ referer: String) -> String? {
    guard let url = URL(string: referer) else { return nil }
    return url.path + (url.query.map { "?\($0)" } ?? "")
  }
}
