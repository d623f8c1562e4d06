import ArgumentParser
import Foundation
import TallyCore
import TallyDelivery
import TallyServer
import TallyStore
import TallyWeb
import TallyWire

/// `tally reminders …`: configuration only; without a subcommand it lists (`reminders list`).
struct RemindersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reminders",
    abstract: "When your habits' reminders fire next, and where they are sent.",
    subcommands: [RemindersList.self, RemindersWebhook.self, RemindersTest.self, RemindersPush.self],
    defaultSubcommand: RemindersList.self)
}

/// `tally reminders [list] [--days N] [--json | --ics]`
struct RemindersList: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "When your habits' reminders fire next.",
    discussion: """
      Over your days from today to today+N−1, after now; a habit already done that day (or a \
      weekly habit whose week met its goal) is not reminded. Archived habits never are. \
      --ics prints the calendar feed 'tally serve' publishes (docs/reminders.md).
      """)

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("How many days to look ahead, today included: 1 to 366.", valueName: "n"))
  var days: Int = ReminderJSON.defaultDays

  @Flag(help: "Print JSON only: one object per reminder, by instant.")
  var json = false

  @Flag(help: "Print the reminders as an iCalendar feed, events with alarms, as 'tally serve' publishes it.")
  var ics = false

  func validate() throws {
    if json && ics {
      throw UsageError("Choose one of --json and --ics.")
    }
    guard ReminderJSON.dayRange.contains(days) else {
      throw UsageError("The number of days must be from 1 to 366, not \(days).")
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let calendar = try session.calendar
    if ics {
      let habits = try await session.store.habits(for: session.user.id, includingArchived: false)
      let occurrences = try await ReminderJSON.occurrences(
        of: habits, from: session.store, user: session.user.id, calendar: calendar, now: session.now, days: days)
      session.output.write(
        CalendarFeeds.reminders(
          occurrences, habits: habits, stamp: session.now, words: ReminderSpeech.words(for: session.user.settings)))
      return
    }
    let reminders = try await ReminderJSON.upcoming(
      from: session.store, user: session.user.id, calendar: calendar, now: session.now, days: days)
    if json {
      try session.output.json(reminders)
      return
    }
    guard !reminders.isEmpty else {
      session.output.line(
        "No reminders in the next \(Sentence.count(days, "day")): 'tally habit edit HABIT --reminder 08:00' sets one.")
      return
    }
    var table = TextTable([.left, .left, .left])
    for reminder in reminders {
      table.add([
        "\(calendar.dayLetter(for: reminder.day)) \(reminder.day)",
        InstantFormat.wallClock(reminder.instant, in: calendar),
        reminder.habitName,
      ])
    }
    table.lines.forEach(session.output.line)
  }
}


/// `tally reminders webhook [URL --kind ntfy|gotify|json] [--remove] [--json]`
struct RemindersWebhook: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "webhook",
    abstract: "Show, set or remove the address 'tally serve' POSTs due reminders to.",
    discussion: """
      ntfy: the topic's address (https://ntfy.sh/my-topic). gotify: the message address with \
      the app token (https://gotify.example/message?token=…). json: any address, which gets \
      Tally's own JSON object. Reminders due from now on are sent; see docs/reminders.md.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The address to POST to.", valueName: "url"))
  var url: String?

  @Option(help: ArgumentHelp("ntfy, gotify or json (default).", valueName: "kind"))
  var kind: Webhook.Kind?

  @Flag(help: "Stop sending reminders to a webhook.")
  var remove = false

  @Flag(help: "Print the webhook as JSON.")
  var json = false

  func validate() throws {
    if remove && (url != nil || kind != nil) {
      throw UsageError("--remove takes no address or --kind.")
    }
    if url == nil && kind != nil {
      throw UsageError("--kind goes with an address: 'tally reminders webhook URL --kind \(kind!.rawValue)'.")
    }
  }

  struct WebhookJSON: Encodable {
    var url: String?
    var kind: Webhook.Kind?
    var since: Date?
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let store = session.store
    let user = session.user.id
    if remove {
      let removed = try await store.deleteWebhook(for: user)
      session.output.line(removed ? "Reminders are no longer sent to a webhook." : "There was no webhook.")
      return
    }
    if let url {
      let webhook: Webhook
      do {
        webhook = try Webhook(url: url, kind: kind ?? .json, since: session.now)
      } catch {
        throw CommandFailure("The webhook \(error.description).", exitCode: CommandFailure.usage)
      }
      try await store.setWebhook(webhook, for: user)
    }
    let webhook = try await store.webhook(for: user)
    if json {
      try session.output.json(WebhookJSON(url: webhook?.url.absoluteString, kind: webhook?.kind, since: webhook?.since))
      return
    }
    guard let webhook else {
      session.output.line("No webhook: 'tally reminders webhook https://ntfy.sh/my-topic --kind ntfy' sets one.")
      return
    }
    session.output.line(
      "\(url == nil ? "Reminders go" : "From now on reminders go") to \(webhook.url.absoluteString) (\(webhook.kind.rawValue)) while 'tally serve' runs.")
  }
}

extension Webhook.Kind: ExpressibleByArgument {}

/// `tally reminders test`
struct RemindersTest: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Send one test notification to the webhook, now.")

  @OptionGroup var global: GlobalOptions

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    guard let webhook = try await session.store.webhook(for: session.user.id) else {
      throw CommandFailure("There is no webhook to test: 'tally reminders webhook URL --kind ntfy' sets one.")
    }
    let request = WebhookMessage.test(at: session.now, words: ReminderSpeech.words(for: session.user.settings))
      .request(for: webhook)
    let status: Int
    do {
      status = try await context.webhookTransport.post(request)
    } catch {
      throw CommandFailure(
        "The test notification did not reach \(webhook.url.absoluteString): \(error.localizedDescription).",
        exitCode: CommandFailure.unavailable)
    }
    guard (200..<300).contains(status) else {
      throw CommandFailure(
        "\(webhook.url.absoluteString) refused the test notification with status \(status).",
        exitCode: CommandFailure.unavailable)
    }
    session.output.line("Sent a test notification to \(webhook.url.absoluteString) (\(webhook.kind.rawValue)); it answered \(status).")
  }
}
