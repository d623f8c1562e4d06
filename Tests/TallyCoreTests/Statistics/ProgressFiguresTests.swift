import Foundation
import TallyCore
import Testing

/// The current period's figures as cards and `tally stats` show them.
@Suite struct ProgressFiguresTests {
  func figures(_ frequency: Frequency, done days: [String], today: String) throws -> (done: String, goal: String) {
    let habit = try Habit(id: UUID(), name: "Swim", createdDay: day("2026-03-01"), frequency: frequency)
    let history = HabitHistory(days.map { HabitEntry(day: day($0), status: .done) })
    return HabitStatistics(habit: habit, history: history, today: day(today), firstWeekday: .monday)
      .progressFigures(of: habit)
  }

  /// A period past its goal says how far past: four swims against three is "4 of 3".
  @Test func everyDoneDayIsCountedPastTheGoal() throws {
    let month = try figures(
      .monthly(timesPerMonth: 3), done: ["2026-03-02", "2026-03-03", "2026-03-05", "2026-03-06"], today: "2026-03-08")
    #expect(month == ("4", "3"))
    let block = try figures(
      .timesInDays(times: 2, days: 10), done: ["2026-03-01", "2026-03-02", "2026-03-04"], today: "2026-03-05")
    #expect(block == ("3", "2"))
    let short = try figures(.monthly(timesPerMonth: 3), done: ["2026-02-27", "2026-03-02"], today: "2026-03-08")
    #expect(short == ("1", "3"), "last month's day is not this month's")
  }

  /// An *at most* grid shades by how far a day stays within the target: under it is a full
  /// square, twice it or more an empty one, as the statistics' share says.
  @Test func anAtMostGridShadesStayingUnderTheTargetAsSuccess() throws {
    let habit = try Habit(
      id: UUID(), name: "Coffee", createdDay: day("2026-03-01"),
      measure: Measure(unit: "cups", target: Amount(2), direction: .atMost))
    let history = HabitHistory([
      HabitEntry(day: day("2026-03-02"), status: .done, amount: Amount(1)),
      HabitEntry(day: day("2026-03-03"), status: .done, amount: Amount(3)),
      HabitEntry(day: day("2026-03-04"), status: .done, amount: Amount(5)),
    ])
    let grid = HabitGrid(habit: habit, history: history, today: day("2026-03-08"), firstWeekday: .monday, weekCount: 2)
    let cells = Dictionary(uniqueKeysWithValues: grid.weeks.joined().map { ($0.day, $0) })
    #expect(cells[day("2026-03-02")]?.share == 1)
    #expect(cells[day("2026-03-03")]?.share == 0.5)
    #expect(cells[day("2026-03-04")]?.share == 0)
    #expect(cells[day("2026-03-02")]?.shareLevel == 4)
    #expect(cells[day("2026-03-04")]?.shareLevel == 0)
  }
}
