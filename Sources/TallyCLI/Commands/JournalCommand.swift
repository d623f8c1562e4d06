import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally journal [DAY] [TEXT]`: with TEXT, writes the day's entry; without, shows the day.
struct JournalCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "journal",
    abstract: "Write a day's journal entry, or show the day's entry and chat.",
    discussion: """
      DAY is YYYY-MM-DD, today or yesterday; default today. With TEXT the day's entry is \
      replaced by it; without TEXT the day's entry and chat are shown. A first argument that \
      is not a day is the text, for today.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The day, or the text for today.", valueName: "day"))
  var first: String?

  @Argument(help: ArgumentHelp("The entry's text.", valueName: "text"))
  var second: String?

  @Flag(help: "Remove the day's entry.")
  var clear = false

  @Option(help: ArgumentHelp(
    "List the entries holding these words, ignoring case and accents, newest first.", valueName: "words"))
  var search: String?

  @Flag(help: "Print JSON only: the day, its entry (or null) and its chat messages.")
  var json = false

  /// What the arguments ask for: a day and, when writing, the text.
  func request() throws(UsageError) -> (day: DayArgument, text: String?) {
    try checked { () throws(TallyCore.ValidationError) in
      guard let first else { return (.today, nil) }
      if let day = try DayAndText.day(first) { return (day, second) }
      guard second == nil else {
        throw TallyCore.ValidationError(
          field: "day", rule: "must be a date written YYYY-MM-DD, today or yesterday, not '\(first)'")
      }
      return (.today, first)
    }
  }

  func validate() throws {
    if let search {
      guard first == nil, !clear else { throw UsageError("--search takes no day, text or --clear.") }
      guard JournalSearch.query(search) != nil else { throw UsageError("--search needs words to look for.") }
      return
    }
    let (_, text) = try request()
    if clear && text != nil {
      throw UsageError("Give TEXT or --clear, not both.")
    }
    if let text {
      _ = try checked { () throws(TallyCore.ValidationError) in
        try JournalEntry(day: Day(ordinal: 0), text: text)
      }
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    if let search {
      try await list(try await session.store.searchJournal(search, for: session.user.id), in: session)
      return
    }
    let today = try session.today
    let (dayArgument, text) = try request()
    let day = try dayArgument.days(today: today)[0]
    let user = session.user.id
    if let text {
      try DayAndText.checkNotFuture(day, today: today, what: "the journal")
      let entry = try JournalEntry(day: day, text: text)
      try await session.store.setJournalEntry(entry, for: user)
      if !json {
        session.output.line(
          "Saved the journal for \(day) (\(Sentence.count(entry.text.count, "character"))).")
        return
      }
    } else if clear {
      try await session.store.clearJournalEntry(on: day, for: user)
      if !json {
        session.output.line("Cleared the journal for \(day).")
        return
      }
    }
    let entry = try await session.store.journalEntry(on: day, for: user)
    let chat = try await session.store.chatMessages(on: day, for: user)
    if json {
      try session.output.json(JournalDayJSON(day: day, entry: entry?.text, chat: chat.map(ChatJSON.init)))
      return
    }
    let calendar = try session.calendar
    session.output.line(calendar.spokenName(of: day, includingYear: true))
    if let entry {
      session.output.line()
      session.output.line(entry.text)
    } else {
      session.output.line("No journal entry.")
    }
    if !chat.isEmpty {
      session.output.line()
      for message in chat {
        // The instant it was written; its day too when that is not the day it is filed under.
        let written = calendar.day(containing: message.sentAt)
        let clock = InstantFormat.wallClock(message.sentAt, in: calendar)
        let time = written == day ? clock : "\(written) \(clock)"
        let who = message.role == .user ? "you" : "assistant"
        session.output.line("\(time) \(who): \(message.text)")
      }
    }
  }

  /// Found entries, newest first: with --json as `tally journal --json` prints days (chat
  /// left out), else a line each with the entry's first line.
  private func list(_ entries: [JournalEntry], in session: Session) async throws {
    if json {
      try session.output.json(entries.map { JournalDayJSON(day: $0.day, entry: $0.text, chat: []) })
      return
    }
    guard !entries.isEmpty else {
      session.output.line("No journal entry holds '\(search ?? "")'.")
      return
    }
    for entry in entries {
      let line = entry.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
      session.output.line("\(entry.day)  \(line.count > 72 ? String(line.prefix(71)) + "…" : line)")
    }
  }
}
