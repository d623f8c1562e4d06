import Foundation
import TallyCore
import Testing

@Suite struct ReminderDueRuleTests {
  typealias F = ReminderFixtures

  @Test func aDailyHabitIsDueUnlessThatDayIsDone() throws {
    let calendar = try F.calendar("Europe/Berlin")
    let monday = try F.day("2026-03-02")
    let rule = ReminderDueRule(
      frequency: .daily,
      entries: [HabitEntry(day: monday, status: .done), HabitEntry(day: monday.adding(days: 1), status: .skipped)],
      calendar: calendar)
    #expect(!rule.isDue(on: monday))
    #expect(rule.isDue(on: monday.adding(days: 1)), "a skipped day is not completed")
    #expect(rule.isDue(on: monday.adding(days: -1)))
    #expect(rule.isDue(on: monday.adding(days: 30)), "future days have no entries")
  }

  @Test func statusesByDayGiveTheSameAnswers() throws {
    let calendar = try F.calendar("Europe/Berlin", firstWeekday: .monday)
    let monday = try F.day("2026-03-02")
    let statuses: [Day: EntryStatus] = [monday: .done, monday.adding(days: 1): .skipped, monday.adding(days: 2): .done]
    let fromStatuses = ReminderDueRule(frequency: .weekly(targetPerWeek: 3), statuses: statuses, calendar: calendar)
    let fromEntries = ReminderDueRule(
      frequency: .weekly(targetPerWeek: 3),
      entries: statuses.map { HabitEntry(day: $0.key, status: $0.value) }, calendar: calendar)
    for day in monday.adding(days: -7)...monday.adding(days: 14) {
      #expect(fromStatuses.isDue(on: day) == fromEntries.isDue(on: day), "\(day)")
    }
  }

  /// Target 2, done Monday and Tuesday: the rest of that week is quiet, the next week is not.
  @Test(arguments: Weekday.allCases)
  func aMetWeeklyGoalSilencesOnlyTheRestOfItsWeek(firstWeekday: Weekday) throws {
    let calendar = try F.calendar("America/New_York", firstWeekday: firstWeekday)
    let monday = try F.day("2026-03-02")
    let tuesday = monday.adding(days: 1)
    let rule = ReminderDueRule(
      frequency: .weekly(targetPerWeek: 2),
      entries: [HabitEntry(day: monday, status: .done), HabitEntry(day: tuesday, status: .done)],
      calendar: calendar)
    let start = calendar.startOfWeek(containing: tuesday)
    let goalWeek = start...start.adding(days: 6)
    for day in start.adding(days: -7)...start.adding(days: 13) {
      // Monday is in the goal week unless the week starts on Tuesday.
      let weekHoldsBoth = goalWeek.contains(monday) && goalWeek.contains(tuesday)
      let expected = day != monday && day != tuesday && !(weekHoldsBoth && goalWeek.contains(day))
      #expect(rule.isDue(on: day) == expected, "\(day) with weeks from \(firstWeekday)")
    }
  }

  @Test func anUnmetWeeklyGoalStaysDueOnOpenDays() throws {
    let calendar = try F.calendar("Asia/Kolkata", firstWeekday: .monday)
    let monday = try F.day("2026-03-02")
    let rule = ReminderDueRule(
      frequency: .weekly(targetPerWeek: 3),
      entries: [
        HabitEntry(day: monday, status: .done), HabitEntry(day: monday.adding(days: 1), status: .done),
        HabitEntry(day: monday.adding(days: 2), status: .skipped),
      ],
      calendar: calendar)
    #expect(!rule.isDue(on: monday))
    #expect(rule.isDue(on: monday.adding(days: 2)), "skipped does not count towards the goal")
    #expect((3...6).allSatisfy { rule.isDue(on: monday.adding(days: $0)) })
  }

  @Test func completionsInTheNeighbouringWeekDoNotCount() throws {
    let calendar = try F.calendar("Europe/Berlin", firstWeekday: .monday)
    let sunday = try F.day("2026-03-08")
    let rule = ReminderDueRule(
      frequency: .weekly(targetPerWeek: 1),
      entries: [HabitEntry(day: sunday, status: .done)], calendar: calendar)
    #expect(!rule.isDue(on: sunday.adding(days: -6)), "Monday of the same week")
    #expect(rule.isDue(on: sunday.adding(days: 1)), "the next Monday starts a new week")
  }
}
