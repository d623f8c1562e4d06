import Foundation
import Hummingbird
import TallyCore
import TallyStore
import TallyWire

/// The Today screen (SPEC 5): the date picker grid or row, the streak badge, and for the
/// selected day the journal entry, the chat and the habits with one-tap completion. Every
/// change is a plain form post that lands back on the same day; the page's script only
/// makes the same requests without reloading.
struct TodayPages {
  let services: AppServices

  /// The width the grid is laid out for until the browser says its own (SPEC 5's example).
  static let widthCookie = "tally_width"
  static let widths = 200...4000

  struct JournalForm: Decodable {
    var day: String
    var text: String
  }

  struct ChatForm: Decodable {
    var day: String
    var text: String
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("today", use: page)
    group.post("today/journal", use: saveJournal)
    group.post("today/chat", use: addMessage)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    let query = request.uri.queryParameters
    let selected = try query.day("day") ?? time.today
    let remembered = request.cookies[Self.widthCookie].flatMap { Int($0.value) }.flatMap { Self.widths.contains($0) ? $0 : nil }
    let width = try query.int("width", in: Self.widths).map(Double.init)
      ?? remembered.map(Double.init) ?? TodayView.defaultWidth
    return try await services.cachedPage(for: user, today: time.today, request: request, variant: "\(width)") {
      let model = try await TodayModel.read(
        from: services.store, user: user, time: time, selected: selected, width: width)
      return Templates.shared.page(
        "today", title: "Today", section: .today, user: user, request: request, content: model)
    }
  }

  /// Saves the day's entry; empty text removes it.
  @Sendable func saveJournal(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(JournalForm.self, limit: services.configuration.maxBodySize)
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
    let form = try await request.decodeForm(ChatForm.self, limit: services.configuration.maxBodySize)
    let day = try writableDay(form.day, for: user, what: "the chat")
    guard !form.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw Problem(.unprocessableContent, "Write a message before sending it.", field: "text")
    }
    let message = try ChatMessage(id: UUID(), day: day, role: .user, text: form.text, sentAt: services.clock())
    try await services.store.addChatMessage(message, for: user.id)
    return .seeOther("/today?day=\(day)#chat")
  }

  static func day(_ text: String) throws -> Day {
    guard let day = Day(text) else {
      throw Problem(.badRequest, "The day '\(text)' is not a day like 2026-03-08.", field: "day")
    }
    return day
  }

  private func writableDay(_ text: String, for user: User, what: String) throws -> Day {
    let day = try Self.day(text)
    let today = try services.time(for: user).today
    guard day <= today else {
      throw Problem(
        .unprocessableContent, "\(day) is after today (\(today)): \(what) holds days up to today.", field: "day")
    }
    return day
  }
}
