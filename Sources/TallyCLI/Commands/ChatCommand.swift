import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally chat [DAY] TEXT [--assistant]`
struct ChatCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract: "Add a chat message to a day (default today).",
    discussion: "Your own messages make a day count for the journal streak; assistant ones do not.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The day (YYYY-MM-DD, today or yesterday), or the text for today.", valueName: "day"))
  var first: String

  @Argument(help: ArgumentHelp("The message.", valueName: "text"))
  var second: String?

  @Flag(help: "File the message as the assistant's reply.")
  var assistant = false

  @Flag(help: "Print the new message as JSON.")
  var json = false

  func request() throws(UsageError) -> (day: DayArgument, text: String) {
    try checked { () throws(TallyCore.ValidationError) in
      guard let second else { return (.today, first) }
      guard let day = try DayAndText.day(first) else {
        throw TallyCore.ValidationError(
          field: "day", rule: "must be a date written YYYY-MM-DD, today or yesterday, not '\(first)'")
      }
      return (day, second)
    }
  }

  func validate() throws {
    let (_, text) = try request()
    _ = try checked { () throws(TallyCore.ValidationError) in
      try ChatMessage(id: UUID(), day: Day(ordinal: 0), role: .user, text: text, sentAt: Date(timeIntervalSince1970: 0))
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
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
