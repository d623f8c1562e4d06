import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

/// `tally stats [HABIT] [--json]`
struct StatsCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Streaks, completion rate, this week's progress and score, per habit.",
    discussion: """
      Habits come ranked: completion rate, then current streak (highest first), then name. \
      Archived habits are left out unless named or --archived is given.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "Only this habit: its exact name, id, or the start of its id.")
  var habit: String?

  @Flag(help: "Include archived habits.")
  var archived = false

  @Flag(help: "Print JSON only: an array with one object per habit.")
  var json = false

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let today = try session.today
    let firstWeekday = try session.calendar.firstWeekday
    let habits: [Habit]
    if let habit {
      habits = [try await HabitLookup.find(habit, in: session)]
    } else {
      habits = try await session.store.habits(for: session.user.id, includingArchived: archived)
    }
    let histories = try await session.store.histories(for: session.user.id)
    let ranked = RankedHabit.ranking(habits, histories: histories, today: today, firstWeekday: firstWeekday)
    if json {
      try session.output.json(ranked.map(StatsJSON.init))
      return
    }
    guard !ranked.isEmpty else {
      session.output.line("No habits yet: add one with 'tally habit add NAME'.")
      return
    }
    var table = TextTable([.left, .right, .right, .right, .right, .right])
    table.add(["HABIT", "STREAK", "LONGEST", "RATE", "PROGRESS", "SCORE"])
    for item in ranked {
      let stats = item.statistics
      let progress = stats.progressFigures(of: item.habit)
      table.add([
        item.habit.name,
        StatsText.streak(stats.currentStreak, stats.streakUnit),
        StatsText.streak(stats.longestStreak, stats.streakUnit),
        StatsText.percent(stats.completionRate),
        "\(progress.done)/\(progress.goal) \(ProgressPeriod(of: item.habit).english)",
        StatsText.percent(stats.score),
      ])
    }
    table.lines.forEach(session.output.line)
  }
}

enum StatsText {
  /// "1 day", "4 weeks".
  static func streak(_ count: Int, _ unit: StreakUnit) -> String {
    Sentence.count(count, unit.rawValue)
  }

  /// "86%".
  static func percent(_ share: Double) -> String {
    "\(Int((share * 100).rounded()))%"
  }
}
