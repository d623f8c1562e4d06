import Foundation
import TallyCore
import TallyStore

/// How pauses read in the terminal.
enum PauseListing {
  static func print(session: Session, habits: [Habit], json: Bool) async throws {
    let pauses = try await session.store.pauses(for: session.user.id)
    if json {
      try session.output.json(pauses)
      return
    }
    guard !pauses.isEmpty else {
      session.output.line("No pauses: 'tally pause HABIT' or 'tally pause --all' adds one.")
      return
    }
    var table = TextTable([.left, .left, .left, .left])
    table.add(["ID", "WHAT", "FROM", "UNTIL"])
    for pause in pauses {
      table.add([
        String(pause.id.storeText.prefix(8)), what(pause, habits: habits), pause.from.description,
        pause.until?.description ?? "resumed",
      ])
    }
    table.lines.forEach(session.output.line)
  }

  /// `'Gym'` or `all habits`.
  static func what(_ pause: Pause, habits: [Habit]) -> String {
    guard let habit = pause.habitID else { return "all habits" }
    return habits.first { $0.id == habit }.map { "'\($0.name)'" } ?? habit.storeText
  }

  /// `from 2026-12-20 through 2026-12-31`, or `from 2026-12-20 until resumed`.
  static func span(_ pause: Pause) -> String {
    "from \(pause.from) " + (pause.until.map { "through \($0)" } ?? "until resumed")
  }

  /// One day (not a range), named by the option it came from.
  static func day(_ text: String, field: String, today: Day) throws -> Day {
    let days = try DayArgument(parsing: text).days(today: today)
    guard days.count == 1 else {
      throw TallyCore.ValidationError(field: field, rule: "must be one day, not the range '\(text)'")
    }
    return days[0]
  }
}
