import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

/// A noted day (not done, only a note) counts exactly as a day with no entry: in statistics,
/// totals, the grid and reminders, against the reference and against the same history with
/// the noted days taken out.
@Suite struct NotedDayPropertyTests {
  @Test func aNotedDayIsNotDoneAndHoldsNoAmount() throws {
    let run = try Habit(
      id: UUID(), name: "Run", createdDay: day("2026-03-01"),
      measure: Measure(unit: "km", target: Amount(5), direction: .atLeast))
    #expect(throws: ValidationError.self) { try run.checkEntry(status: .noted, amount: Amount(2)) }
    try run.checkEntry(status: .noted, amount: nil)
    let history = HabitHistory([HabitEntry(day: day("2026-03-02"), status: .noted, note: "rain")])
    #expect(history.status(on: day("2026-03-02")) == nil)
    #expect(history.firstCompletedDay == nil)
    #expect(DayMark.noted.status == .noted)
  }

  @Test func everyRuleCountsANotedDayAsAnEmptyOne() async {
    let input = MeasurablePropertyTests.input
    await propertyCheck(count: 300, input: input) { seconds, zone, switchHour, first, age, schedule, kind, raw in
      let calendar = try! DayCalendar(timeZone: specZones[zone], daySwitchHour: switchHour, firstWeekday: first)
      let today = calendar.day(containing: Date(timeIntervalSince1970: TimeInterval(seconds)))
      let measure: Measure? =
        kind.0 == 0 ? nil
        : try! Measure(unit: "km", target: Amount(thousandths: Int64(kind.1)), direction: kind.0 == 1 ? .atLeast : .atMost)
      let h = try! Habit(
        id: UUID(), name: "Run", createdDay: today.adding(days: -age),
        frequency: MeasurablePropertyTests.frequency(schedule.0, schedule.1, schedule.2, measurable: measure != nil),
        measure: measure)
      // The third number picks the status: done, skipped or noted, by its remainder.
      var byDay: [Day: HabitEntry] = [:]
      for (offset, present, amount) in raw where present > 0 {
        let d = today.adding(days: -offset)
        let status: EntryStatus = [.done, .skipped, .noted][amount % 3]
        byDay[d] = HabitEntry(
          day: d, status: status, note: status == .noted ? "why" : nil,
          amount: status == .done && measure != nil ? Amount(thousandths: Int64(amount)) : nil)
      }
      let withNotes = Array(byDay.values)
      let without = withNotes.filter { $0.status != .noted }
      let fast = HabitStatistics(habit: h, history: HabitHistory(withNotes), today: today, firstWeekday: first)
      let plain = HabitStatistics(habit: h, history: HabitHistory(without), today: today, firstWeekday: first)
      let slow = ReferenceStatistics.statistics(habit: h, entries: withNotes, today: today, firstWeekday: first)
      #expect(fast == plain)
      expectSameFigures(fast, slow)
      for period in TotalsPeriod.allCases {
        #expect(
          HabitTotals(habit: h, history: HabitHistory(withNotes), today: today, firstWeekday: first, by: period)
            == HabitTotals(habit: h, history: HabitHistory(without), today: today, firstWeekday: first, by: period))
      }
      let grid = { (entries: [HabitEntry]) in
        HabitGrid(habit: h, history: HabitHistory(entries), today: today, firstWeekday: first, weekCount: 30)
      }
      #expect(grid(withNotes) == grid(without))
      let due = ReminderDueRule(habit: h, entries: withNotes, calendar: calendar)
      let plainDue = ReminderDueRule(habit: h, entries: without, calendar: calendar)
      for offset in stride(from: -200, through: 30, by: 3) {
        let d = today.adding(days: offset)
        #expect(due.isDue(on: d) == plainDue.isDue(on: d), "\(d)")
      }
    }
  }
}
