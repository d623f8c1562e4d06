import ArgumentParser
import Foundation
import TallyCore
import TallyStore

/// `tally mark HABIT [DAY…] [--skip] [--undo] [--note TEXT]`
struct MarkCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "mark",
    abstract: "Set days of a habit to done (the default), skipped, or nothing.",
    discussion: """
      Days are set, not toggled: marking a day twice changes nothing. A DAY is YYYY-MM-DD, \
      today, yesterday, or a range FIRST..LAST; without one, today. Days after today are \
      refused, and then no day changes.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit: its exact name, id, or the start of its id.")
  var habit: String

  @Argument(help: ArgumentHelp("The days to set; default today.", valueName: "day"))
  var days: [String] = []

  @Flag(help: "Mark the days skipped: they neither break nor extend a streak.")
  var skip = false

  @Flag(help: "Clear the days: no entry, not done (their notes go too).")
  var undo = false

  @Option(help: ArgumentHelp("A note for each day; empty text removes the notes.", valueName: "text"))
  var note: String?

  @Flag(help: "Print the days' entries afterwards as JSON.")
  var json = false

  func validate() throws {
    if skip && undo {
      throw UsageError("Give --skip or --undo, not both.")
    }
    if undo && note != nil {
      throw UsageError("--undo removes the days' notes with their entries; it takes no --note.")
    }
    _ = try dayArguments()
    _ = try checked { () throws(TallyCore.ValidationError) in try EntryNote.resolve(note, keeping: nil) }
  }

  func dayArguments() throws(UsageError) -> [DayArgument] {
    try checked { () throws(TallyCore.ValidationError) in
      try days.isEmpty ? [.today] : days.map { text throws(TallyCore.ValidationError) in try DayArgument(parsing: text) }
    }
  }

  var mark: DayMark { undo ? .nothing : skip ? .skipped : .done }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habit = try await HabitLookup.find(habit, in: session)
    let today = try session.today
    var chosen: [Day] = []
    for argument in try dayArguments() {
      chosen += try argument.days(today: today)
    }
    let days = Set(chosen).sorted()
    if let future = days.last, future > today {
      try DayMark.checkMarkable(future, today: today)
    }
    let entries = try await session.store.setDays(
      days, of: habit.id, to: mark, note: note, for: session.user.id)
    if json {
      try session.output.json(entries)
      return
    }
    let all = try await session.store.entries(of: habit.id, for: session.user.id)
    let statistics = HabitStatistics(
      habit: habit, history: HabitHistory(all), today: today, firstWeekday: try session.calendar.firstWeekday)
    let what = switch mark {
    case .done: "done"
    case .skipped: "skipped"
    case .nothing: "cleared"
    }
    let noted = note.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? ", notes removed" : ", with the note" } ?? ""
    session.output.line(
      "\(habit.name): \(MarkCommand.describe(days)) \(what)\(noted). "
        + "Current streak: \(StatsText.streak(statistics.currentStreak, statistics.streakUnit)).")
  }

  /// "2026-03-08", "2026-03-06, 2026-03-07 and 2026-03-08", or "40 days from … to …".
  static func describe(_ days: [Day]) -> String {
    if days.count <= 5 { return Sentence.list(days.map(\.description)) }
    return "\(days.count) days from \(days[0]) to \(days[days.count - 1])"
  }
}
