import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// Pausing and resuming from the habit page and from Today ("Pause all until …"): plain
/// form posts that go back to the page they came from.
struct PausePages {
  let services: AppServices

  struct PauseForm: Decodable {
    /// Empty or absent: every habit.
    var habit: String?
    /// Empty or absent: today.
    var from: String?
    /// Empty or absent: until resumed.
    var until: String?
    var back: String?
  }

  struct ResumeForm: Decodable {
    var habit: String?
    var back: String?
  }

  struct BackForm: Decodable {
    var back: String?
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.post("pauses", use: pause)
    group.post("pauses/resume", use: resume)
    group.post("pauses/{id}/delete", use: delete)
  }

  @Sendable func pause(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(PauseForm.self, limit: services.configuration.maxBodySize)
    let today = try services.time(for: user).today
    let habit = try Self.habitID(form.habit)
    let from = try Self.day(form.from, field: "from") ?? today
    let pause = try Pause(id: UUID(), habitID: habit, from: from, until: try Self.day(form.until, field: "until"))
    _ = try await services.store.savePause(pause, for: user.id)
    return .seeOther(AccountPages.safeNext(form.back ?? "/today"))
  }

  /// Ends the pauses of the habit (or of all habits) that cover today: today counts again.
  @Sendable func resume(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(ResumeForm.self, limit: services.configuration.maxBodySize)
    let today = try services.time(for: user).today
    _ = try await services.store.resume(habit: try Self.habitID(form.habit), on: today, for: user.id)
    return .seeOther(AccountPages.safeNext(form.back ?? "/today"))
  }

  @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(BackForm.self, limit: services.configuration.maxBodySize)
    try await services.store.deletePause(id: try context.parameters.requireID("id"), for: user.id)
    return .seeOther(AccountPages.safeNext(form.back ?? "/today"))
  }

  private static func habitID(_ text: String?) throws -> UUID? {
    guard let text, !text.isEmpty else { return nil }
    guard let id = UUID(uuidString: text) else {
      throw Problem(.unprocessableContent, "The habit '\(text)' is not a habit's id.", field: "habit")
    }
    return id
  }

  private static func day(_ text: String?, field: String) throws -> Day? {
    guard let text, !text.isEmpty else { return nil }
    return try Day.fromRequest(text, field: field)
  }
}

/// The pauses shown on a page: the habit's own and those of all habits, with words for each.
struct PauseRow: Sendable {
  let id: String
  let text: String
  /// The delete button's spoken label, which names the pause.
  let deleteLabel: String
  let isActive: Bool
  /// "Vacation" pauses (all habits) are removed from Today, not from a habit's page.
  let isOwn: Bool

  static func rows(_ pauses: [Pause], habit: UUID?, today: Day, words: PageDays) -> [PauseRow] {
    pauses.filter { $0.habitID == nil || $0.habitID == habit }
      .filter { $0.days.upperBound >= today }
      .map { pause in
        let from = words.name(pause.from, near: today)
        let whose = pause.habitID == nil ? "pause.all" : "pause.one"
        let text =
          if let until = pause.until {
            words.t.text(whose + "Through", ["from": from, "until": words.name(until, near: today)])
          } else {
            words.t.text(whose + "UntilResumed", ["from": from])
          }
        return PauseRow(
          id: pause.id.storeText, text: text, deleteLabel: words.t.text("pause.deleteLabel", ["pause": text]),
          isActive: pause.days.contains(today), isOwn: pause.habitID == habit)
      }
  }
}

extension PauseRow {
  /// `[{"id": …, "until": …}, …]`: each pause a resume on `day` ends (its new last day) or
  /// deletes (no `until`), as ``PauseRepository/resume(habit:on:for:)`` would.
  static func resumeChanges(_ pauses: [Pause], on day: Day) -> String {
    let changes = pauses.filter { $0.days.upperBound >= day }.map { pause in
      ["id": pause.id.storeText, "until": pause.resumed(on: day)?.until?.description]
    }
    let data = (try? JSONSerialization.data(withJSONObject: changes.map { $0.compactMapValues { $0 } }, options: [.sortedKeys])) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
