import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally reminders [--days N] [--json]`
struct RemindersCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "reminders",
    abstract: "When your habits' reminders fire next.",
    discussion: """
      Over your days from today to today+N−1, after now; a habit already done that day (or a \
      weekly habit whose week met its goal) is not reminded. Archived habits never are.
      """)

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("How many days to look ahead, today included: 1 to 366.", valueName: "n"))
  var days: Int = ReminderJSON.defaultDays

  @Flag(help: "Print JSON only: one object per reminder, by instant.")
  var json = false

  func validate() throws {
    guard ReminderJSON.dayRange.contains(days) else {
      throw UsageError("The number of days must be from 1 to 366, not \(days).")
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let calendar = try session.calendar
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

