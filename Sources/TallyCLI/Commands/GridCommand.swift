import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

/// `tally grid [HABIT] [--weeks N]`
struct GridCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "grid",
    abstract: "A contribution grid of one habit, or of all of them, like GitHub's.",
    discussion: """
      Columns are weeks, oldest on the left, ending with this week; rows are weekdays from \
      your first weekday. With a HABIT: done, not done, skipped and before-start days. \
      Without: each day's share of your habits done, in five levels. Colour only when \
      standard output is a terminal (and NO_COLOR is unset); the characters alone tell the \
      same. 38 weeks fit 80 columns.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "One habit: its exact name, id, or the start of its id. Default: all active habits.")
  var habit: String?

  @Option(help: ArgumentHelp("How many weeks to show, 1 to \(GridText.maxWeeks).", valueName: "n"))
  var weeks: Int = GridText.maxWeeks

  @Flag(help: "Print JSON only: the grid's weeks of cells.")
  var json = false

  func validate() throws {
    guard (1...GridText.maxWeeks).contains(weeks) else {
      throw UsageError(
        "The number of weeks must be from 1 to \(GridText.maxWeeks) (what fits 80 columns), not \(weeks).")
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let calendar = try session.calendar
    let today = try session.today
    let colour = context.standardOutput.isTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
    let text = GridText(calendar: calendar, colour: colour)
    let user = session.user.id
    if let habit {
      let habit = try await HabitLookup.find(habit, in: session)
      let grid = HabitGrid(
        habit: habit,
        history: HabitHistory(try await session.store.entries(of: habit.id, for: user))
          .pausing(try await session.store.pausedDays(of: habit.id, for: user)),
        today: today, firstWeekday: calendar.firstWeekday, weekCount: weeks)
      if json {
        try session.output.json(HabitGridJSON(grid, calendar: calendar, today: today))
        return
      }
      session.output.line("\(habit.name) · \(habit.frequency.text) · \(Sentence.count(weeks, "week")) to \(today)")
      text.lines(grid, habit: habit).forEach(session.output.line)
      return
    }
    let habits = try await session.store.habits(for: user, includingArchived: false)
    let histories = try await session.store.histories(for: user)
    let grid = ActivityGrid(
      habits: habits.map { ActivityGrid.Input(habit: $0, history: histories[$0.id] ?? HabitHistory([])) },
      today: today, firstWeekday: calendar.firstWeekday, weekCount: weeks)
    if json {
      try session.output.json(ActivityGridJSON(grid, calendar: calendar, today: today))
      return
    }
    session.output.line("All habits (\(habits.count)) · \(Sentence.count(weeks, "week")) to \(today)")
    text.lines(grid).forEach(session.output.line)
  }
}
