import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyWire

/// The Today screen (SPEC 5): the date picker grid or row, the streak badge, and for the
/// selected day the journal entry, the chat and the habits with one-tap completion. Every
/// change is a plain form post that lands back on the same day; the page's script only
/// makes the same requests without reloading.
struct TodayPages {
  let services: AppServices

  static let widthCookie = "tally_width"
  /// The widths a page may be laid out for, in points.
  static let widths = 200...4000

  /// The journal's and the chat's form: a day and its text.
  struct DayTextForm: Decodable {
    var day: String
    var text: String
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("today", use: page)
    group.post("today/journal", use: saveJournal)
    group.post("today/chat", use: addMessage)
    group.post("today/chat/{id}", use: editMessage)
    group.post("today/chat/{id}/delete", use: deleteMessage)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    let query = request.uri.queryParameters
    let selected = try query.day("day") ?? time.today
    let width = try Self.width(of: request, cookie: Self.widthCookie, default: TodayView.defaultWidth)
    let speech = PageLanguages.speech(for: request, user: context.user)
    return try await services.cachedPage(
      for: user, today: time.today, request: request, variant: "\(width)", speech: speech
    ) { revision in
      let days = try await services.histories.read(for: user.id, from: services.store, at: revision)
      let model = try await TodayModel.read(
        from: services.store, days: days, user: user, time: time, selected: selected, width: width, speech: speech)
      return Templates.shared.page(
        "today", title: speech.translator.text("nav.today"), section: .today, user: user, request: request,
        content: model, live: revision, speech: speech)
    }
  }

  /// Saves the day's entry; empty text removes it.
  @Sendable func saveJournal(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(DayTextForm.self, limit: services.configuration.maxBodySize)
    let day = try writableDay(form.day, for: user, what: "the journal")
    if form.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      try await services.store.clearJournalEntry(on: day, for: user.id)
    } else {
      try await services.store.setJournalEntry(try JournalEntry(day: day, text: form.text), for: user.id)
    }
    return .seeOther("/today?day=\(day)#journal")
  }

  @Sendable func addMessage(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(DayTextForm.self, limit: services.configuration.maxBodySize)
    let day = try writableDay(form.day, for: user, what: "the chat")
    guard !form.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw Problem(.unprocessableContent, "Write a message before sending it.", field: "text")
    }
    let message = try ChatMessage(id: UUID(), day: day, role: .user, text: form.text, sentAt: services.clock())
    try await services.store.addChatMessage(message, for: user.id)
    return .seeOther("/today?day=\(day)#chat")
  }

  /// Replaces a message's text; it keeps its day and the instant it was written.
  @Sendable func editMessage(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let form = try await request.decodeForm(DayTextForm.self, limit: services.configuration.maxBodySize)
    let day = try Day.fromRequest(form.day, field: "day")
    guard !form.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw Problem(.unprocessableContent, "A message cannot be emptied; delete it instead.", field: "text")
    }
    try await services.store.updateChatMessage(id: id, text: form.text, for: user.id)
    return .seeOther("/today?day=\(day)#message-\(id.storeText)")
  }

  struct DayForm: Decodable {
    var day: String
  }

  @Sendable func deleteMessage(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let form = try await request.decodeForm(DayForm.self, limit: services.configuration.maxBodySize)
    let day = try Day.fromRequest(form.day, field: "day")
    try await services.store.deleteChatMessage(id: id, for: user.id)
    return .seeOther("/today?day=\(day)#chat")
  }

  /// The width a grid is laid out for: `?width=`, else the one the browser last reported in
  /// `cookie`, else `default` (without the page's script, the server cannot know it).
  static func width(of request: Request, cookie: String, default: Double) throws -> Double {
    if let asked = try request.uri.queryParameters.int("width", in: widths) { return Double(asked) }
    if let remembered = request.cookies[cookie].flatMap({ Int($0.value) }), widths.contains(remembered) {
      return Double(remembered)
    }
    return `default`
  }

  private func writableDay(_ text: String, for user: User, what: String) throws -> Day {
    let day = try Day.fromRequest(text, field: "day")
    let today = try services.time(for: user).today
    guard day <= today else {
      throw Problem(
        .unprocessableContent,
        ValidationError(
          field: "day", rule: "\(day) is after today (\(today)): \(what) holds days up to today", kind: .inFuture,
          values: ["day": "\(day)"]))
    }
    return day
  }
}
