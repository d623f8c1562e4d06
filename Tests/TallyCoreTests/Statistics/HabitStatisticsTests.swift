import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct DailyStatisticsTests {
  func stats(_ pattern: String, created: String = "2026-03-01", today: String) -> HabitStatistics {
    HabitStatistics(
      habit: habit(created: created), history: HabitHistory(entries(from: created, pattern)),
      today: day(today), firstWeekday: .sunday)
  }

  @Test func unfinishedTodayNeitherCountsNorBreaks() {
    // 1–4 March done, today 5 March not yet.
    let s = stats("xxxx", today: "2026-03-05")
    #expect(s.currentStreak == 4)
    #expect(s.longestStreak == 4)
    #expect(s.completionRate == 1)
    #expect(s.streakUnit == .day)
  }

  @Test func completedTodayExtendsTheStreakAndCounts() {
    let s = stats("xxxxx", today: "2026-03-05")
    #expect(s.currentStreak == 5)
    #expect(s.completionRate == 1)
  }

  @Test func aMissedDayBreaksTheStreak() {
    let s = stats("xxx.xx", today: "2026-03-06")
    #expect(s.currentStreak == 2)
    #expect(s.longestStreak == 3)
    #expect(s.completionRate == 5.0 / 6)
  }

  @Test func skippedDaysAreTransparent() {
    // done, skipped, done, skipped, done: a streak of three over five days.
    let s = stats("xsxsx", today: "2026-03-05")
    #expect(s.currentStreak == 3)
    #expect(s.longestStreak == 3)
    #expect(s.completionRate == 1)
  }

  @Test func skippedTodayKeepsYesterdaysStreak() {
    let s = stats("xxs", today: "2026-03-03")
    #expect(s.currentStreak == 2)
    #expect(s.completionRate == 1)
  }

  @Test func missedYesterdayMeansNoCurrentStreak() {
    let s = stats("xx.", today: "2026-03-04")
    #expect(s.currentStreak == 0)
    #expect(s.longestStreak == 2)
    #expect(s.completionRate == 2.0 / 3)
  }

  @Test func backFilledDaysExtendTheTrackedPeriod() {
    // Created 10 March, back-filled 5–9 March.
    let h = habit(created: "2026-03-10")
    let history = HabitHistory(entries(from: "2026-03-05", "xxxxx"))
    let s = HabitStatistics(habit: h, history: history, today: day("2026-03-10"), firstWeekday: .sunday)
    #expect(s.currentStreak == 5)
    #expect(s.completionRate == 1)
  }

  @Test func aNewHabitHasZeroes() {
    let s = stats("", today: "2026-03-01")
    #expect(s == HabitStatistics(
      currentStreak: 0, longestStreak: 0, streakUnit: .day, completionRate: 0,
      completionsThisWeek: 0, weeklyProgress: 0, score: 0))
  }

  @Test func entriesAfterTodayAreIgnored() {
    let future = HabitHistory(entries(from: "2026-03-01", "x.xxxx"))
    let s = HabitStatistics(
      habit: habit(created: "2026-03-01"), history: future, today: day("2026-03-02"),
      firstWeekday: .sunday)
    #expect(s.currentStreak == 1)
    #expect(s.longestStreak == 1)
    #expect(s.completionsThisWeek == 1)
  }

  @Test func completionsThisWeekFollowTheFirstWeekday() {
    // Wed 4 March 2026 is today; done Sun 1, Mon 2, Tue 3, Wed 4.
    let history = HabitHistory(entries(from: "2026-03-01", "xxxx"))
    let h = habit(created: "2026-03-01")
    let sunday = HabitStatistics(habit: h, history: history, today: day("2026-03-04"), firstWeekday: .sunday)
    let monday = HabitStatistics(habit: h, history: history, today: day("2026-03-04"), firstWeekday: .monday)
    let wednesday = HabitStatistics(habit: h, history: history, today: day("2026-03-04"), firstWeekday: .wednesday)
    #expect(sunday.completionsThisWeek == 4)
    #expect(monday.completionsThisWeek == 3)
    #expect(wednesday.completionsThisWeek == 1)
    #expect(sunday.weeklyProgress == 4.0 / 7)
  }

  @Test func scoreFollowsTheExponentialAverage() {
    let m = pow(0.5, 1.0 / 13)
    // done, done, missed, skipped, done
    let s = stats("xx.sx", today: "2026-03-05")
    var expected = 0.0
    for v in [1.0, 1, 0, 1] { expected = expected * m + v * (1 - m) }
    #expect(abs(s.score - expected) < 1e-12)
    // A perfect year approaches 1 but never reaches it.
    let year = stats(String(repeating: "x", count: 365), created: "2025-01-01", today: "2025-12-31")
    #expect(year.score > 0.99 && year.score < 1)
  }
}

@Suite struct WeeklyStatisticsTests {
  // Weeks start on Sunday; 1 March 2026 is a Sunday.
  func stats(_ target: Int, _ pattern: String, today: String, firstWeekday: Weekday = .sunday)
    -> HabitStatistics
  {
    HabitStatistics(
      habit: habit(created: "2026-03-01", frequency: .weekly(targetPerWeek: target)),
      history: HabitHistory(entries(from: "2026-03-01", pattern)), today: day(today),
      firstWeekday: firstWeekday)
  }

  @Test func weeksMeetingTheGoalMakeAStreak() {
    // Three weeks with 3, 3, 2 completions; target 3; today is the Saturday of week 3.
    let s = stats(3, "x.x.x.." + "xxx...." + "x.x....", today: "2026-03-21")
    #expect(s.streakUnit == .week)
    #expect(s.currentStreak == 2)
    #expect(s.longestStreak == 2)
    #expect(s.completionRate == 1)
    #expect(s.completionsThisWeek == 2)
    #expect(s.weeklyProgress == 2.0 / 3)
  }

  @Test func theCurrentWeekCountsOnceItMeetsTheGoal() {
    let s = stats(2, "xx....." + "xx", today: "2026-03-09")
    #expect(s.currentStreak == 2)
    #expect(s.weeklyProgress == 1)
  }

  @Test func aMissedPastWeekBreaksTheStreak() {
    let s = stats(2, "xx....." + "x......" + "xx.....", today: "2026-03-17")
    #expect(s.currentStreak == 1)
    #expect(s.longestStreak == 1)
    #expect(s.completionRate == 2.0 / 3)
  }

  @Test func excusedWeeksAreTransparent() {
    // Week 2: one done and two skipped meets a target of 3 only with the skips: excused.
    let s = stats(3, "xxx...." + "xss...." + "xxx....", today: "2026-03-17")
    #expect(s.currentStreak == 2)
    #expect(s.longestStreak == 2)
    #expect(s.completionRate == 1)
  }

  @Test func progressIsCappedAtOne() {
    let s = stats(2, "xxxx", today: "2026-03-04")
    #expect(s.completionsThisWeek == 4)
    #expect(s.weeklyProgress == 1)
  }

  @Test func scoreUsesTheFourteenDayWindow() {
    let target = 2
    let m = pow(0.5, (Double(target) / 7).squareRoot() / 13)
    let s = stats(target, "x.x", today: "2026-03-03")
    let expected = ((0 * m + 0.25 * (1 - m)) * m + 0.25 * (1 - m)) * m + 0.5 * (1 - m)
    #expect(abs(s.score - expected) < 1e-12)
  }
}

@Suite struct StatisticsPropertyTests {
  /// A random habit history near a random today, including back-filled days before the
  /// creation day, skipped days, and entries after today that must be ignored.
  static let histories = zip(
    Gen.int(in: 19_000...21_500),  // today, 2022–2028 (leap days included)
    Gen.int(in: -3...120),  // how many days before today the habit was created
    Gen.int(in: 0...6),  // 0 daily, else weekly target
    Gen<Weekday>.case,
    zip(Gen.int(in: -3...150), Gen.int(in: 0...2)).array(of: 0...120)
  )

  @Test func matchTheReferenceForEveryFirstWeekday() async {
    await propertyCheck(count: 400, input: Self.histories) { todayOrdinal, age, kind, first, raw in
      let today = Day(ordinal: todayOrdinal)
      let h = try! Habit(
        id: UUID(), name: "Walk", createdDay: today.adding(days: -age),
        frequency: kind == 0 ? .daily : .weekly(targetPerWeek: kind))
      var byDay: [Day: HabitEntry] = [:]
      for (offset, status) in raw where status > 0 {
        let d = today.adding(days: -offset)
        byDay[d] = HabitEntry(day: d, status: status == 1 ? .done : .skipped)
      }
      let list = Array(byDay.values)
      let fast = HabitStatistics(habit: h, history: HabitHistory(list), today: today, firstWeekday: first)
      let slow = ReferenceStatistics.statistics(habit: h, entries: list, today: today, firstWeekday: first)
      expectSameFigures(fast, slow)
    }
  }
}
