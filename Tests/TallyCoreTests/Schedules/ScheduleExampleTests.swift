import Foundation
import Testing
import TallyCore

/// The worked examples of docs/date-model.md's "Chosen weekdays and pauses", one test each.
@Suite struct ScheduleExampleTests {
  let monWedFri = Frequency.weekdays(try! WeekdaySet([.monday, .wednesday, .friday]))

  func stats(_ h: Habit, _ list: [HabitEntry], today: String, paused: [ClosedRange<Day>] = []) -> HabitStatistics {
    HabitStatistics(
      habit: h, history: HabitHistory(list).pausing(PausedDays(paused)), today: day(today), firstWeekday: .monday)
  }

  /// Mon 2 Nov 2026 … Sun 15 Nov: done on every Mon/Wed/Fri, nothing on the other days.
  @Test func unscheduledDaysNeitherBreakNorAdd() {
    let h = habit(created: "2026-11-02", frequency: monWedFri)
    let s = stats(h, entries(from: "2026-11-02", "x.x.x..x.x.x.."), today: "2026-11-15")
    #expect(s.currentStreak == 6)
    #expect(s.longestStreak == 6)
    #expect(s.completionRate == 1)
    #expect(s.streakUnit == .day)
  }

  /// A missed Wednesday breaks the run; a Saturday session counts as a completed day.
  @Test func aMissedScheduledDayBreaksAndAnExtraDayCounts() {
    let h = habit(created: "2026-11-02", frequency: monWedFri)
    let s = stats(h, entries(from: "2026-11-02", "x...xx.x"), today: "2026-11-09")
    // Mon x, Wed missed, Fri x, Sat x (extra), Mon x: the run after Wednesday is 3.
    #expect(s.currentStreak == 3)
    #expect(s.longestStreak == 3)
    // Counted days: Mon, Wed, Fri, Sat, Mon (9 Nov is today and done) → 4 of 5.
    #expect(s.completionRate == 0.8)
    #expect(s.completionsThisWeek == 1)
    #expect(abs(s.weeklyProgress - 1.0 / 3) < 1e-12)
  }

  /// A daily habit with a week's vacation keeps its streak: 3 days done, 7 paused, 2 done.
  @Test func aVacationKeepsADailyStreak() {
    let h = habit(created: "2026-11-01")
    let paused = day("2026-11-04")...day("2026-11-10")
    let s = stats(h, entries(from: "2026-11-01", "xxx.......xx"), today: "2026-11-12", paused: [paused])
    #expect(s.currentStreak == 5)
    #expect(s.completionRate == 1)
    let without = stats(h, entries(from: "2026-11-01", "xxx.......xx"), today: "2026-11-12")
    #expect(without.currentStreak == 2)
    #expect(without.score < s.score)
  }

  /// 3 a week, Monday to Sunday weeks; 4 of the 7 days paused: ceil(3 × 3 / 7) = 2 days needed.
  @Test func aPartlyPausedWeekNeedsItsShare() {
    let h = habit(created: "2026-11-02", frequency: .weekly(targetPerWeek: 3))
    let paused = day("2026-11-05")...day("2026-11-08")
    let met = stats(h, entries(from: "2026-11-02", "x.x....x"), today: "2026-11-09", paused: [paused])
    #expect(met.currentStreak == 1)
    #expect(met.completionRate == 1)
    let missed = stats(h, entries(from: "2026-11-02", "x......x"), today: "2026-11-09", paused: [paused])
    #expect(missed.currentStreak == 0)
    #expect(missed.completionRate == 0)
  }

  /// A wholly paused week is excused: it neither breaks the run of weeks around it nor counts.
  @Test func aWhollyPausedWeekIsExcused() {
    let h = habit(created: "2026-11-02", frequency: .weekly(targetPerWeek: 2))
    let paused = day("2026-11-09")...day("2026-11-15")
    let s = stats(h, entries(from: "2026-11-02", "xx.............xx"), today: "2026-11-18", paused: [paused])
    #expect(s.currentStreak == 2)
    #expect(s.completionRate == 1)
  }

  /// 10 a month in November (30 days) with 10 days paused: ceil(10 × 20 / 30) = 7 needed.
  @Test func aPartlyPausedMonthNeedsSeven() {
    let h = habit(created: "2026-11-01", frequency: .monthly(timesPerMonth: 10))
    let paused = day("2026-11-21")...day("2026-11-30")
    let seven = stats(h, entries(from: "2026-11-01", "x.x.x.x.x.x.x"), today: "2026-12-01", paused: [paused])
    #expect(seven.longestStreak == 1)
    let six = stats(h, entries(from: "2026-11-01", "x.x.x.x.x.x"), today: "2026-12-01", paused: [paused])
    #expect(six.longestStreak == 0)
  }

  /// An open pause covers every day from its start; resuming ends it the day before.
  @Test func resumingEndsThePauseTheDayBefore() throws {
    let open = try Pause(id: UUID(), habitID: nil, from: day("2026-11-04"), until: nil)
    #expect(open.days.contains(day("2040-01-01")))
    let ended = try #require(open.resumed(on: day("2026-11-10")))
    #expect(ended.until == day("2026-11-09"))
    #expect(open.resumed(on: day("2026-11-04")) == nil)
  }

  /// Neutral days are never due, and a partly paused week stops reminding once its share is met.
  @Test func neutralDaysAreNeverDue() throws {
    let calendar = try DayCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!, firstWeekday: .monday)
    let h = habit(created: "2026-11-02", frequency: monWedFri)
    let rule = ReminderDueRule(habit: h, entries: [], calendar: calendar)
    #expect(rule.isDue(on: day("2026-11-02")))
    #expect(!rule.isDue(on: day("2026-11-03")))
    let weekly = habit(created: "2026-11-02", frequency: .weekly(targetPerWeek: 3))
    let paused = PausedDays([day("2026-11-05")...day("2026-11-08")])
    let partly = ReminderDueRule(habit: weekly, entries: entries(from: "2026-11-02", "x"), paused: paused, calendar: calendar)
    #expect(partly.isDue(on: day("2026-11-03")))
    #expect(!partly.isDue(on: day("2026-11-05")))
    let met = ReminderDueRule(habit: weekly, entries: entries(from: "2026-11-02", "xx"), paused: paused, calendar: calendar)
    #expect(!met.isDue(on: day("2026-11-04")))
  }

  @Test func gridsDrawNeutralDaysApart() {
    let h = habit(created: "2026-11-02", frequency: monWedFri)
    let history = HabitHistory(entries(from: "2026-11-02", "x....x")).pausing(PausedDays([day("2026-11-04")...day("2026-11-04")]))
    let grid = HabitGrid(habit: h, history: history, today: day("2026-11-08"), firstWeekday: .monday, weekCount: 1)
    #expect(grid.weeks[0].map(\.state) == [.done, .unscheduled, .paused, .unscheduled, .empty, .done, .unscheduled])
    #expect(HabitGrid.State.paused.spokenText == "paused")
    let activity = ActivityGrid(
      habits: [ActivityGrid.Input(habit: h, history: history)], today: day("2026-11-08"), firstWeekday: .monday,
      weekCount: 1)
    #expect(activity.weeks[0].map(\.tracked) == [1, 0, 0, 0, 1, 1, 0])
  }
}
