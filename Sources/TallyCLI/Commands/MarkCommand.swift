import ArgumentParser
import Foundation
import TallyCore
import TallyStore

/// `tally mark HABIT [AMOUNT] [DAY…] [--amount N] [--skip] [--not-done] [--undo] [--note TEXT]`
struct MarkCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "mark",
    abstract: "Set days of a habit to done (the default), skipped, not done with a note, or nothing.",
    discussion: """
      Days are set, not toggled: marking a day twice changes nothing. A DAY is YYYY-MM-DD, \
      today, yesterday, or a range FIRST..LAST; without one, today. Days after today are \
      refused, and then no day changes. A measurable habit takes an amount in its unit: \
      'tally mark Run 5.2' or --amount 5.2 (a plain number among the days is the amount).
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit: its exact name, id, or the start of its id.")
  var habit: String

  @Argument(help: ArgumentHelp("The amount (measurable habits) and the days to set; default today.", valueName: "day"))
  var days: [String] = []

  @Option(help: ArgumentHelp("How much, in the habit's unit (measurable habits).", valueName: "number"))
  var amount: String?

  @Flag(help: "Mark the days skipped: they neither break nor extend a streak.")
  var skip = false

  @Flag(help: "Clear the days: no entry, not done (their notes go too).")
  var undo = false

  @Flag(name: .customLong("not-done"), help: "Keep the days not done, holding only the --note given.")
  var notDone = false

  @Option(help: ArgumentHelp("A note for each day; empty text removes the notes.", valueName: "text"))
  var note: String?

  @Flag(help: "Print the days' entries afterwards as JSON.")
  var json = false

  func validate() throws {
    if [skip, undo, notDone].filter(\.self).count > 1 {
      throw UsageError("Give one of --skip, --not-done and --undo.")
    }
    if undo && note != nil {
      throw UsageError("--undo removes the days' notes with their entries; it takes no --note.")
    }
    if (skip || undo || notDone), try givenAmount() != nil {
      throw UsageError("A skipped, not done or cleared day has no amount; leave it out.")
    }
    _ = try dayArguments()
    let mark = try mark()
    _ = try checked { () throws(TallyCore.ValidationError) in try EntryNote.resolve(note, for: mark) }
  }

  /// Plain numbers among the positional arguments are amounts; the rest are days.
  private var dayTexts: [String] { days.filter { !Self.isNumber($0) } }

  private static func isNumber(_ text: String) -> Bool {
    !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
  }

  func givenAmount() throws(UsageError) -> Amount? {
    let texts = days.filter(Self.isNumber) + (amount.map { [$0] } ?? [])
    guard texts.count <= 1 else { throw UsageError("Give one amount, not \(texts.count).") }
    guard let text = texts.first else { return nil }
    return try checked { () throws(TallyCore.ValidationError) in try Amount(parsing: text) }
  }

  func dayArguments() throws(UsageError) -> [DayArgument] {
    let texts = dayTexts
    return try checked { () throws(TallyCore.ValidationError) in
      try texts.isEmpty ? [.today] : texts.map { text throws(TallyCore.ValidationError) in try DayArgument(parsing: text) }
    }
  }

  func mark() throws(UsageError) -> DayMark {
    if undo { return .nothing }
    if skip { return .skipped }
    if notDone { return .noted }
    return try givenAmount().map(DayMark.amount) ?? .done
  }

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
    if let first = days.first { try Day.checkKept(first) }
    let mark = try mark()
    let entries = try await session.store.setDays(
      days, of: habit.id, to: mark, note: note, for: session.user.id)
    if json {
      try session.output.json(entries)
      return
    }
    let all = try await session.store.entries(of: habit.id, for: session.user.id)
    let statistics = HabitStatistics(
      habit: habit, history: HabitHistory(all).pausing(try await session.store.pausedDays(of: habit.id, for: session.user.id)),
      today: today, firstWeekday: try session.calendar.firstWeekday)
    let what = switch mark {
    case .done: "done"
    case .skipped: "skipped"
    case .nothing: "cleared"
    case .noted: "kept not done"
    case .amount(let amount): "done (\(HabitText.amount(amount, of: habit)))"
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
