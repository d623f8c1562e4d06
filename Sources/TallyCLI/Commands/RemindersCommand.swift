import ArgumentParser
import Foundation
import TallyCore
import TallyStore

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
  var days: Int = 7

  @Flag(help: "Print JSON only: one object per reminder, by instant.")
  var json = false

  func validate() throws {
    guard (1...366).contains(days) else {
      throw UsageError("The number of days must be from 1 to 366, not \(days).")
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let calendar = try session.calendar
    let today = try session.today
    let user = session.user.id
    let habits = try await session.store.habits(for: user, includingArchived: false)
    // The due rule needs the whole week holding today, and every day of the window.
    let entries = try await session.store.entries(
      in: calendar.startOfWeek(containing: today)...today.adding(days: days), for: user)
    let occurrences = try ReminderSchedule(calendar: calendar).occurrences(
      of: habits, entries: entries, after: session.now, days: days)
    let names = Dictionary(uniqueKeysWithValues: habits.map { ($0.id, $0.name) })
    if json {
      try session.output.json(
        occurrences.map {
          ReminderJSON(
            habitId: $0.habitID.storeText, habitName: names[$0.habitID] ?? "", day: $0.day,
            time: $0.time, instant: $0.instant, key: $0.key)
        })
      return
    }
    guard !occurrences.isEmpty else {
      session.output.line(
        "No reminders in the next \(Sentence.count(days, "day")): 'tally habit edit HABIT --reminder 08:00' sets one.")
      return
    }
    var table = TextTable([.left, .left, .left])
    for occurrence in occurrences {
      table.add([
        "\(calendar.dayLetter(for: occurrence.day)) \(occurrence.day)",
        InstantFormat.wallClock(occurrence.instant, in: calendar),
        names[occurrence.habitID] ?? "",
      ])
    }
    table.lines.forEach(session.output.line)
  }
}

/// One reminder as `reminders --json` prints it.
struct ReminderJSON: Encodable {
  let habitId: String
  let habitName: String
  /// The user's day the reminder belongs to.
  let day: Day
  /// The wall-clock time it was set for.
  let time: WallTime
  /// When it fires.
  let instant: Date
  /// `habit-id/YYYY-MM-DD/HH:MM`, stable across runs.
  let key: ReminderOccurrenceKey
}
