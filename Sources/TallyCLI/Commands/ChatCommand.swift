import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally chat [DAY] TEXT [--assistant]`, `tally chat --edit ID TEXT`, `tally chat --delete ID`
struct ChatCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract: "Add a chat message to a day (default today), or edit or delete one.",
    discussion: """
      Your own messages make a day count for the journal streak; assistant ones do not. \
      --edit and --delete take a message's id (or the start of it, 8 characters or more) as \
      `tally journal DAY --json` prints it; an edit keeps the message's day and the instant it \
      was written.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The day (YYYY-MM-DD, today or yesterday), or the text for today.", valueName: "day"))
  var first: String?

  @Argument(help: ArgumentHelp("The message.", valueName: "text"))
  var second: String?

  @Flag(help: "File the message as the assistant's reply.")
  var assistant = false

  @Option(help: ArgumentHelp("Replace the text of the message with this id.", valueName: "id"))
  var edit: String?

  @Option(help: ArgumentHelp("Delete the message with this id.", valueName: "id"))
  var delete: String?

  @Flag(help: "Print the new or edited message as JSON.")
  var json = false

  func request() throws(UsageError) -> (day: DayArgument, text: String) {
    guard let first else { throw UsageError("Give the message's text.") }
    return try checked { () throws(TallyCore.ValidationError) in
      guard let second else { return (.today, first) }
      guard let day = try DayAndText.day(first) else {
        throw TallyCore.ValidationError(
          field: "day", rule: "must be a date written YYYY-MM-DD, today or yesterday, not '\(first)'")
      }
      return (day, second)
    }
  }

  func validate() throws {
    if delete != nil {
      guard edit == nil, first == nil, !assistant else {
        throw UsageError("--delete takes only the message's id.")
      }
      return
    }
    if edit != nil, second != nil || assistant {
      throw UsageError("--edit takes the message's id and its new text only.")
    }
    let (_, text) = try request()
    _ = try checked { () throws(TallyCore.ValidationError) in
      try ChatMessage(id: UUID(), day: Day(ordinal: 0), role: .user, text: text, sentAt: Date(timeIntervalSince1970: 0))
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    if let delete {
      let message = try await ChatLookup.message(delete, in: session)
      try await session.store.deleteChatMessage(id: message.id, for: session.user.id)
      session.output.line("Deleted the message of \(message.day).")
      return
    }
    if let edit, let first {
      let old = try await ChatLookup.message(edit, in: session)
      let message = try await session.store.updateChatMessage(id: old.id, text: first, for: session.user.id)
      if json {
        try session.output.json(ChatJSON(message))
      } else {
        session.output.line("Edited the message of \(message.day).")
      }
      return
    }
    let today = try session.today
    let (dayArgument, text) = try request()
    let day = try dayArgument.days(today: today)[0]
    try DayAndText.checkNotFuture(day, today: today, what: "the chat")
    let message = try ChatMessage(
      id: UUID(), day: day, role: assistant ? .assistant : .user, text: text, sentAt: session.now)
    try await session.store.addChatMessage(message, for: session.user.id)
    if json {
      try session.output.json(ChatJSON(message))
      return
    }
    let count = try await session.store.chatMessages(on: day, for: session.user.id).count
    session.output.line("Added a message to \(day) (\(Sentence.count(count, "message")) that day).")
  }
}
