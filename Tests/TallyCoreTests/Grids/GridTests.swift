import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct GridGeometryTests {
  @Test func weekCountFollowsTheFormula() {
    // floor((W + g) / (c + g)): 10 cells of 12 with gaps of 3 need exactly 147.
    #expect(GridGeometry.weekCount(width: 147, cellSize: 12, gap: 3) == 10)
    #expect(GridGeometry.weekCount(width: 146.9, cellSize: 12, gap: 3) == 9)
    #expect(GridGeometry.weekCount(width: 5, cellSize: 12, gap: 3) == 1)
    #expect(GridGeometry.weekCount(width: 0, cellSize: 12, gap: 3) == 1)
  }

  @Test func weekCountIsTheLargestThatFits() async {
    let input = zip(Gen.int(in: 0...2000), Gen.int(in: 4...30), Gen.int(in: 0...8))
    await propertyCheck(count: 300, input: input) { width, cell, gap in
      let n = GridGeometry.weekCount(width: Double(width), cellSize: Double(cell), gap: Double(gap))
      let needed = { (k: Int) in k * cell + (k - 1) * gap }
      #expect(n >= 1)
      #expect(n == 1 || needed(n) <= width)
      #expect(needed(n + 1) > width)
    }
  }
}

@Suite struct HabitGridTests {
  // Today Wednesday 11 March 2026; created Tuesday 3 March; back-filled Sunday 1 March.
  let today = day("2026-03-11")
  var grid: HabitGrid {
    var list = entries(from: "2026-03-01", "x.xs....x.x")
    list.append(HabitEntry(day: day("2026-02-25"), status: .skipped))
    return HabitGrid(
      habit: habit(created: "2026-03-03"), history: HabitHistory(list), today: today,
      firstWeekday: .sunday, weekCount: 3)
  }

  @Test func endsWithTheWeekHoldingToday() {
    let g = grid
    #expect(g.weeks.count == 3)
    #expect(g.weeks.map { $0.first!.day } == [day("2026-02-22"), day("2026-03-01"), day("2026-03-08")])
    #expect(g.weeks.allSatisfy { $0.count == 7 })
  }

  @Test func statesFollowTheDay() {
    let cells = Dictionary(uniqueKeysWithValues: grid.weeks.joined().map { ($0.day, $0.state) })
    #expect(cells[day("2026-02-24")] == .beforeStart)  // before S = 1 March, no entry
    #expect(cells[day("2026-02-25")] == .skipped)  // an entry shows even before S
    #expect(cells[day("2026-03-01")] == .done)  // back-filled completion moves S
    #expect(cells[day("2026-03-02")] == .empty)
    #expect(cells[day("2026-03-04")] == .skipped)
    #expect(cells[day("2026-03-11")] == .done)  // today, completed
    #expect(cells[day("2026-03-12")] == .future)
  }

  @Test func pagedBackItEndsWithTheWeekOfTheDayAskedFor() {
    let history = HabitHistory(entries(from: "2026-03-01", "x.xs....x.x"))
    let earlier = HabitGrid(
      habit: habit(created: "2026-03-03"), history: history, today: today, firstWeekday: .monday, weekCount: 2,
      endingIn: day("2026-03-04"))
    #expect(earlier.weeks.map { $0.first!.day } == [day("2026-02-23"), day("2026-03-02")])
    // Days after the asked-for one but before today keep their real states.
    let cells = Dictionary(uniqueKeysWithValues: earlier.weeks.joined().map { ($0.day, $0.state) })
    #expect(cells[day("2026-03-08")] == .empty)
    #expect(cells[day("2026-03-03")] == .done)
    #expect(!cells.values.contains(.future))
    // A day after today ends the grid at today, as without it.
    let ahead = HabitGrid(
      habit: habit(created: "2026-03-03"), history: history, today: today, firstWeekday: .sunday, weekCount: 3,
      endingIn: day("2026-05-01"))
    let plain = HabitGrid(
      habit: habit(created: "2026-03-03"), history: history, today: today, firstWeekday: .sunday, weekCount: 3)
    #expect(ahead == plain)
  }

  @Test func onlyDaysUpToTodayToggle() {
    for cell in grid.weeks.joined() {
      #expect(cell.isToggleable == (cell.day <= today))
    }
  }

  @Test func rowsStartAtTheFirstWeekday() {
    for first in Weekday.allCases {
      let g = HabitGrid(
        habit: habit(created: "2026-03-01"), history: HabitHistory([]), today: today,
        firstWeekday: first, weekCount: 2)
      for week in g.weeks {
        #expect(week.map(\.day.weekday) == (try! DayCalendar(timeZone: .gmt, firstWeekday: first)).orderedWeekdays)
      }
      #expect(g.weeks.last!.contains { $0.day == today })
    }
  }

  @Test func cellsCarrySpokenLabels() throws {
    let calendar = try DayCalendar(timeZone: .gmt)
    let cells = grid.weeks.joined()
    let done = try #require(cells.first { $0.day == day("2026-03-01") })
    #expect(done.spokenLabel(calendar: calendar, today: today) == "Sunday 1 March, completed")
    let old = HabitGrid.Cell(day: day("2025-09-01"), state: .empty)
    #expect(old.spokenLabel(calendar: calendar, today: today) == "Monday 1 September 2025, not done")
  }
}

@Suite struct ActivityGridTests {
  @Test func levelsFollowTheQuarterBoundaries() {
    #expect(ActivityGrid.level(completed: 0, of: 0) == 0)
    #expect(ActivityGrid.level(completed: 0, of: 5) == 0)
    #expect(ActivityGrid.level(completed: 1, of: 4) == 1)  // exactly ¼
    #expect(ActivityGrid.level(completed: 1, of: 3) == 2)
    #expect(ActivityGrid.level(completed: 2, of: 4) == 2)  // exactly ½
    #expect(ActivityGrid.level(completed: 3, of: 5) == 3)
    #expect(ActivityGrid.level(completed: 3, of: 4) == 3)  // exactly ¾
    #expect(ActivityGrid.level(completed: 4, of: 5) == 4)
    #expect(ActivityGrid.level(completed: 7, of: 7) == 4)
  }

  @Test func levelMatchesTheShareForEverySize() {
    for total in 1...40 {
      for completed in 0...total {
        let share = Double(completed) / Double(total)
        let expected = share == 0 ? 0 : share <= 0.25 ? 1 : share <= 0.5 ? 2 : share <= 0.75 ? 3 : 4
        #expect(ActivityGrid.level(completed: completed, of: total) == expected, "\(completed)/\(total)")
      }
    }
  }

  @Test func onlyHabitsThatExistedThatDayCount() {
    // Today Saturday 7 March 2026. A is tracked from 1 March; B from 5 March.
    let a = ActivityGrid.Input(
      habit: habit("A", created: "2026-03-01"),
      history: HabitHistory(entries(from: "2026-03-01", "x...xx.")))
    let b = ActivityGrid.Input(
      habit: habit("B", created: "2026-03-05"),
      history: HabitHistory(entries(from: "2026-03-01", "....x..")))
    let grid = ActivityGrid(habits: [a, b], today: day("2026-03-06"), firstWeekday: .sunday, weekCount: 1)
    let cells = grid.weeks[0]
    #expect(cells.map(\.tracked) == [1, 1, 1, 1, 2, 2, 0])
    #expect(cells.map(\.completed) == [1, 0, 0, 0, 2, 1, 0])
    #expect(cells.map(\.level) == [4, 0, 0, 0, 4, 2, 0])
    #expect(cells.map(\.isFuture) == [false, false, false, false, false, false, true])
  }
}

@Suite struct RankingTests {
  func row(_ name: String, rate: Double, streak: Int) -> RankedHabit {
    RankedHabit(
      habit: habit(name, created: "2026-01-01"),
      statistics: HabitStatistics(
        currentStreak: streak, longestStreak: streak, streakUnit: .day, completionRate: rate,
        completionsThisWeek: 0, weeklyProgress: 0, score: 0))
  }

  @Test func ranksByRateThenStreakThenName() {
    let ranked = RankedHabit.ranked([
      row("walk", rate: 0.5, streak: 3),
      row("Read", rate: 0.9, streak: 1),
      row("stretch", rate: 0.5, streak: 7),
      row("Apples", rate: 0.5, streak: 3),
      row("Zen", rate: 1, streak: 0),
    ])
    #expect(ranked.map(\.habit.name) == ["Zen", "Read", "stretch", "Apples", "walk"])
  }
}
