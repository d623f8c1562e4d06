import ArgumentParser
import Foundation
import TallyCore
import TallyStore

/// `tally pause HABIT|--all [--from DAY] [--until DAY]`, `tally pause --list [--json]`
struct PauseCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause",
    abstract: "Pause a habit, or all of them (a vacation): paused days neither break nor add to a streak.",
    discussion: """
      Paused days are left out of streaks, rates and the score unless you complete them, and \
      nothing is due on them. Without --until the pause lasts until 'tally resume'. \
      HABIT is a habit's exact name, its id, or the start of its id.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit to pause.")
  var habit: String?

  @Flag(help: "Pause every habit.")
  var all = false

  @Option(help: ArgumentHelp("The first paused day (YYYY-MM-DD, today or yesterday); default today.", valueName: "day"))
  var from: String?

  @Option(help: ArgumentHelp("The last paused day; without it, until resumed.", valueName: "day"))
  var until: String?

  @Flag(help: "List the pauses instead.")
  var list = false

  @Flag(help: "Print JSON only: the new pause, or with --list every pause.")
  var json = false

  func validate() throws {
    if list {
      guard habit == nil, !all, from == nil, until == nil else {
        throw UsageError("--list takes no HABIT, --all, --from or --until.")
      }
      return
    }
    guard (habit != nil) != all else { throw UsageError("Name a HABIT or give --all, one of them.") }
    try checked { () throws(TallyCore.ValidationError) in
      if let from { _ = try DayArgument(parsing: from) }
      if let until { _ = try DayArgument(parsing: until) }
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habits = try await session.store.habits(for: session.user.id, includingArchived: true)
    if list {
      try await PauseListing.print(session: session, habits: habits, json: json)
      return
    }
    let today = try session.today
    let target = try habit.map { try HabitLookup.find($0, in: habits) }
    let first = try from.map { try PauseListing.day($0, field: "from", today: today) } ?? today
    let last = try until.map { try PauseListing.day($0, field: "until", today: today) }
    let pause = try Pause(id: UUID(), habitID: target?.id, from: first, until: last)
    let saved = try await session.store.savePause(pause, for: session.user.id)
    if json {
      try session.output.json(saved)
    } else {
      session.output.line("Paused \(PauseListing.what(saved, habits: habits)) \(PauseListing.span(saved)).")
    }
  }
}

/// `tally resume HABIT|--all [--on DAY]`
struct ResumeCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "resume",
    abstract: "End a habit's pause, or the pause of all habits: it ends the day before --on (default today).")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The habit to resume.")
  var habit: String?

  @Flag(help: "Resume the pause of all habits.")
  var all = false

  @Option(help: ArgumentHelp("The first day no longer paused; default today.", valueName: "day"))
  var on: String?

  @Flag(help: "Print JSON only: the pauses ended and the ids of those deleted.")
  var json = false

  func validate() throws {
    guard (habit != nil) != all else { throw UsageError("Name a HABIT or give --all, one of them.") }
    if let on { _ = try checked { () throws(TallyCore.ValidationError) in try DayArgument(parsing: on) } }
  }

  struct Resumed: Encodable {
    var ended: [Pause]
    var deleted: [UUID]
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let habits = try await session.store.habits(for: session.user.id, includingArchived: true)
    let today = try session.today
    let target = try habit.map { try HabitLookup.find($0, in: habits) }
    let day = try on.map { try PauseListing.day($0, field: "on", today: today) } ?? today
    let (ended, deleted) = try await session.store.resume(habit: target?.id, on: day, for: session.user.id)
    if json {
      try session.output.json(Resumed(ended: ended, deleted: deleted))
      return
    }
    let what = target.map { "'\($0.name)'" } ?? "all habits"
    guard !ended.isEmpty || !deleted.isEmpty else {
      throw CommandFailure("\(what.prefix(1).uppercased() + what.dropFirst()) had no pause on or after \(day).")
    }
    session.output.line("Resumed \(what) from \(day).")
  }
}
