import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// The journal and its chat, by day: the same data and rules as `tally journal` and
/// `tally chat` (entries and messages only for days up to today).
struct JournalController {
  let services: AppServices

  struct EntryBody: JSONBody {
    var text: String
    static let fields: Set<String> = ["text"]
    static let textLimits = ["text": JournalEntry.maxCharacters]
  }

  struct MessageBody: JSONBody {
    var text: String
    /// `user` when absent: only the person's own messages count for the streak.
    var role: ChatRole?
    static let fields: Set<String> = ["text", "role"]
    static let textLimits = ["text": ChatMessage.maxCharacters]
    static let nullableFields: Set<String> = ["role"]
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("journal", use: list)
    group.get("journal/{day}", use: day)
    group.put("journal/{day}", use: write)
    group.delete("journal/{day}", use: clear)
    group.get("chat/{day}", use: chat)
    group.post("chat/{day}", use: addMessage)
    group.patch("chat/messages/{id}", use: editMessage)
    group.delete("chat/messages/{id}", use: deleteMessage)
  }

  /// Every day from `from` to `to` (both optional) that has an entry or chat, by day; with
  /// `q`, only days whose entry holds those words (``JournalSearch``).
  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[JournalDayJSON]> {
    let user = try context.requireUser()
    let query = request.uri.queryParameters
    let from = try query.day("from") ?? Day.allTime.lowerBound
    let to = try query.day("to") ?? Day.allTime.upperBound
    guard from <= to else {
      throw Problem(.badRequest, "The range from \(from) to \(to) ends before it starts.", field: "to")
    }
    var entries = try await services.store.journalEntries(in: from...to, for: user.id)
    var messages = try await services.store.chatMessages(in: from...to, for: user.id)
    if let q = query.get("q") {
      guard JournalSearch.query(q) != nil else {
        throw Problem(.badRequest, "The query parameter 'q' must hold something to search for.", field: "q")
      }
      let found = Set(try await services.store.searchJournal(q, for: user.id).map(\.day))
      entries = entries.filter { found.contains($0.day) }
      messages = messages.filter { found.contains($0.day) }
    }
    let texts = Dictionary(uniqueKeysWithValues: entries.map { ($0.day, $0.text) })
    let chats = Dictionary(grouping: messages, by: \.day)
    return JSONResponse(
      Set(texts.keys).union(chats.keys).sorted().map { day in
        JournalDayJSON(day: day, entry: texts[day], chat: (chats[day] ?? []).map(ChatJSON.init))
      })
  }

  @Sendable func day(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<JournalDayJSON> {
    let user = try context.requireUser()
    return JSONResponse(try await journalDay(try context.parameters.requireDay("day"), for: user))
  }

  /// Replaces the day's entry and answers with the whole day, as `tally journal DAY TEXT --json`.
  @Sendable func write(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<JournalDayJSON> {
    let user = try context.requireUser()
    let day = try context.parameters.requireDay("day")
    let body = try await request.decodeJSON(EntryBody.self, limit: services.configuration.maxBodySize)
    try checkNotFuture(day, for: user, what: "the journal")
    try await services.store.setJournalEntry(try JournalEntry(day: day, text: body.text), for: user.id)
    return JSONResponse(try await journalDay(day, for: user))
  }

  /// Removes the day's entry; a day without one is already as asked.
  @Sendable func clear(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.clearJournalEntry(on: try context.parameters.requireDay("day"), for: user.id)
    return Response(status: .noContent)
  }

  @Sendable func chat(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[ChatJSON]> {
    let user = try context.requireUser()
    let day = try context.parameters.requireDay("day")
    return JSONResponse(try await services.store.chatMessages(on: day, for: user.id).map(ChatJSON.init))
  }

  /// Adds a message sent now, filed under the day in the path.
  @Sendable func addMessage(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ChatJSON> {
    let user = try context.requireUser()
    let day = try context.parameters.requireDay("day")
    let body = try await request.decodeJSON(MessageBody.self, limit: services.configuration.maxBodySize)
    try checkNotFuture(day, for: user, what: "the chat")
    let message = try ChatMessage(
      id: UUID(), day: day, role: body.role ?? .user, text: body.text, sentAt: services.clock())
    try await services.store.addChatMessage(message, for: user.id)
    return JSONResponse(ChatJSON(message), status: .created)
  }

  struct EditBody: JSONBody {
    var text: String
    static let fields: Set<String> = ["text"]
    static let textLimits = ["text": ChatMessage.maxCharacters]
  }

  /// Replaces a message's text; its day, role and `sentAt` (when it was written) stay.
  @Sendable func editMessage(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ChatJSON> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let body = try await request.decodeJSON(EditBody.self, limit: services.configuration.maxBodySize)
    return JSONResponse(ChatJSON(try await services.store.updateChatMessage(id: id, text: body.text, for: user.id)))
  }

  @Sendable func deleteMessage(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.deleteChatMessage(id: try context.parameters.requireID("id"), for: user.id)
    return Response(status: .noContent)
  }

  private func journalDay(_ day: Day, for user: User) async throws -> JournalDayJSON {
    let entry = try await services.store.journalEntry(on: day, for: user.id)
    let chat = try await services.store.chatMessages(on: day, for: user.id)
    return JournalDayJSON(day: day, entry: entry?.text, chat: chat.map(ChatJSON.init))
  }

  /// Journal and chat hold days up to the user's today, like the CLI.
  private func checkNotFuture(_ day: Day, for user: User, what: String) throws {
    let today = try services.time(for: user).today
    guard day <= today else {
      throw Problem(
        .unprocessableContent,
        "The day \(day) is in the future (today is \(today)); \(what) holds days up to today.", field: "day")
    }
  }
}
