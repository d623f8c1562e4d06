import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

/// A measurable habit created on `created`, with amounts a day from `created` on (`nil` is no
/// entry, a negative number a skipped day).
private func measured(
  _ amounts: [Double?], created: String = "2026-03-01", target: Int = 5, direction: TargetDirection = .atLeast,
  frequency: Frequency = .daily
) -> (Habit, HabitHistory) {
  let h = try! Habit(
    id: UUID(), name: "Run", createdDay: day(created), frequency: frequency,
    measure: Measure(unit: "km", target: Amount(target), direction: direction))
  var list: [HabitEntry] = []
  for (offset, amount) in amounts.enumerated() {
    guard let amount else { continue }
    let d = day(created).adding(days: offset)
    list.append(
      amount < 0
        ? HabitEntry(day: d, status: .skipped)
        : HabitEntry(day: d, status: .done, amount: try! Amount(number: amount)))
  }
  return (h, HabitHistory(list))
}

@Suite struct MeasurableStatisticsTests {
  @Test func aDayMeetsItsGoalWhenTheAmountReachesTheTarget() {
    let (h, history) = measured([5, 6.5, 4.999, 5, 5])
    let s = HabitStatistics(habit: h, history: history, today: day("2026-03-05"), firstWeekday: .sunday)
    #expect(s.currentStreak == 2)
    #expect(s.longestStreak == 2)
    #expect(s.completionRate == 4.0 / 5)
    #expect(s.periodAmount == Amount(5))
    #expect(s.periodProgress == 1)
  }

  @Test func atMostIsMetAtOrUnderTheTargetAndLostAbove() {
    let (h, history) = measured([2, 0, 3, 1], target: 2, direction: .atMost)
    let s = HabitStatistics(habit: h, history: history, today: day("2026-03-04"), firstWeekday: .sunday)
    #expect(s.currentStreak == 1)
    #expect(s.longestStreak == 2)
    #expect(s.completionRate == 3.0 / 4)
  }

  /// A device whose clock runs ahead can create a habit "tomorrow": until that day it has no
  /// period, so an at-most habit (met by an empty week) has no streak yet, here and in the
  /// reference.
  @Test func anAtMostHabitCreatedTomorrowHasNoStreakYet() {
    let (h, history) = measured([], created: "2026-03-05", target: 2, direction: .atMost, frequency: .weekly(targetPerWeek: 1))
    let today = day("2026-03-04")
    let s = HabitStatistics(habit: h, history: history, today: today, firstWeekday: .sunday)
    #expect(s.currentStreak == 0)
    #expect(s.completionRate == 0)
    #expect(s.periodProgress == 0)
    let slow = ReferenceStatistics.statistics(habit: h, entries: [], today: today, firstWeekday: .sunday)
    #expect(slow.currentStreak == 0)
    #expect(slow.completionRate == 0)
    #expect(slow.periodProgress == 0)
  }

  @Test func aWeeklyTargetSumsTheWeek() {
    // Weeks from Sunday 1 March: 3 + 4 = 7 ≥ 7 meets; the next week 6 does not.
    let (h, history) = measured(
      [3, nil, 4, nil, nil, nil, nil, 6], target: 7, frequency: .weekly(targetPerWeek: 1))
    let s = HabitStatistics(habit: h, history: history, today: day("2026-03-14"), firstWeekday: .sunday)
    #expect(s.streakUnit == .week)
    #expect(s.longestStreak == 1)
    #expect(s.currentStreak == 1, "the current week is still in progress")
    #expect(s.periodAmount == Amount(6))
    #expect(abs(s.periodProgress - 6.0 / 7) < 1e-12)
  }

  @Test func aSkippedDayIsNeutral() {
    let (h, history) = measured([5, -1, 5])
    let s = HabitStatistics(habit: h, history: history, today: day("2026-03-03"), firstWeekday: .sunday)
    #expect(s.currentStreak == 2)
    #expect(s.completionRate == 1)
  }

  @Test func timesInDaysCountsBlocksFromTheStart() {
    let h = habit(created: "2026-03-01", frequency: .timesInDays(times: 2, days: 3))
    // Blocks 1–3, 4–6, 7–9 March: two, one, two completions.
    let s = HabitStatistics(
      habit: h, history: HabitHistory(entries(from: "2026-03-01", "xx.x..x.x")),
      today: day("2026-03-09"), firstWeekday: .sunday)
    #expect(s.streakUnit == .period)
    #expect(s.currentStreak == 1)
    #expect(s.longestStreak == 1)
    #expect(s.completionRate == 2.0 / 3)
  }

  @Test func monthlyCountsCalendarMonths() {
    let h = habit(created: "2024-01-20", frequency: .monthly(timesPerMonth: 2))
    // Two in January, two in leap February (the 29th included), one in March so far.
    let list = ["2024-01-21", "2024-01-31", "2024-02-01", "2024-02-29", "2024-03-01"].map {
      HabitEntry(day: day($0), status: .done)
    }
    let s = HabitStatistics(habit: h, history: HabitHistory(list), today: day("2024-03-10"), firstWeekday: .monday)
    #expect(s.streakUnit == .month)
    #expect(s.currentStreak == 2)
    #expect(s.completionRate == 1)
    #expect(s.periodProgress == 0.5)
  }

  @Test func theScoreFollowsLoopForAmounts() {
    // Daily target 4: 2 then 4 gives v = 0.5 then 1.
    let (h, history) = measured([2, 4], target: 4)
    let s = HabitStatistics(habit: h, history: history, today: day("2026-03-02"), firstWeekday: .sunday)
    let m = pow(0.5, 1.0 / 13)
    #expect(abs(s.score - ((0.5 * (1 - m)) * m + (1 - m))) < 1e-12)
  }

  @Test func totalsSumEachMonthAndAverageThem() {
    let (h, history) = measured([1.5, 2.25], created: "2026-01-31")
    let totals = HabitTotals(habit: h, history: history, today: day("2026-03-02"), firstWeekday: .sunday, by: .month)
    #expect(totals.buckets.map(\.start) == [day("2026-01-01"), day("2026-02-01"), day("2026-03-01")])
    #expect(totals.buckets.map(\.amount) == [try! Amount(number: 1.5), try! Amount(number: 2.25), .zero])
    #expect(abs(totals.averageAmount - 3.75 / 3) < 1e-12)
  }
}

@Suite struct MeasurablePropertyTests {
  static let input = zip(
    Gen.int(in: 1_262_304_000...1_956_528_000),  // now, 2010–2031
    Gen.int(in: 0..<specZones.count), Gen.int(in: 0...6), Gen<Weekday>.case,
    Gen.int(in: -3...200),  // how many days before today the habit was created
    zip(Gen.int(in: 0...3), Gen.int(in: 1...6), Gen.int(in: 2...40)),  // schedule kind, times, block length
    zip(Gen.int(in: 0...2), Gen.int(in: 1...12_000)),  // 0 yes/no, 1 at least, 2 at most; target thousandths
    zip(Gen.int(in: -3...230), Gen.int(in: 0...2), Gen.int(in: 0...9_000)).array(of: 0...150)
  )

  static func frequency(_ kind: Int, _ times: Int, _ days: Int, measurable: Bool) -> Frequency {
    let k = measurable ? 1 : times
    return switch kind {
    case 0: .daily
    case 1: .weekly(targetPerWeek: k)
    case 2: .timesInDays(times: min(k, days - 1), days: days)
    default: .monthly(timesPerMonth: k)
    }
  }

  @Test func everyRuleMatchesTheReference() async {
    await propertyCheck(count: 300, input: Self.input) { seconds, zone, switchHour, first, age, schedule, kind, raw in
      let now = Date(timeIntervalSince1970: TimeInterval(seconds))
      let calendar = try! DayCalendar(timeZone: specZones[zone], daySwitchHour: switchHour, firstWeekday: first)
      let today = calendar.day(containing: now)
      #expect(today == ReferenceCalendar.day(containing: now, timeZone: specZones[zone], daySwitchHour: switchHour))
      let measure: Measure? =
        kind.0 == 0 ? nil
        : try! Measure(unit: "km", target: Amount(thousandths: Int64(kind.1)), direction: kind.0 == 1 ? .atLeast : .atMost)
      let h = try! Habit(
        id: UUID(), name: "Run", createdDay: today.adding(days: -age),
        frequency: Self.frequency(schedule.0, schedule.1, schedule.2, measurable: measure != nil), measure: measure)
      var byDay: [Day: HabitEntry] = [:]
      for (offset, status, amount) in raw where status > 0 {
        let d = today.adding(days: -offset)
        let done = status == 1
        byDay[d] = HabitEntry(
          day: d, status: done ? .done : .skipped,
          amount: done && measure != nil ? Amount(thousandths: Int64(amount)) : nil)
      }
      let list = Array(byDay.values)
      let history = HabitHistory(list)
      let fast = HabitStatistics(habit: h, history: history, today: today, firstWeekday: first)
      let slow = ReferenceStatistics.statistics(habit: h, entries: list, today: today, firstWeekday: first)
      expectSameFigures(fast, slow)
      for period in TotalsPeriod.allCases {
        let totals = HabitTotals(habit: h, history: history, today: today, firstWeekday: first, by: period)
        #expect(
          totals.buckets
            == ReferencePeriods.totals(habit: h, entries: list, today: today, firstWeekday: first, by: period))
      }
    }
  }

  /// Reminders are due while the period's goal is not met, by the same periods as statistics.
  @Test func remindersAreDueWhileTheGoalIsNotMet() async {
    await propertyCheck(count: 200, input: Self.input) { seconds, zone, switchHour, first, age, schedule, kind, raw in
      let calendar = try! DayCalendar(timeZone: specZones[zone], daySwitchHour: switchHour, firstWeekday: first)
      let today = calendar.day(containing: Date(timeIntervalSince1970: TimeInterval(seconds)))
      let measure: Measure? =
        kind.0 == 0 ? nil : try! Measure(unit: "", target: Amount(thousandths: Int64(kind.1)), direction: kind.0 == 1 ? .atLeast : .atMost)
      let h = try! Habit(
        id: UUID(), name: "Run", createdDay: today.adding(days: -age),
        frequency: Self.frequency(schedule.0, schedule.1, schedule.2, measurable: measure != nil), measure: measure)
      var byDay: [Day: HabitEntry] = [:]
      for (offset, status, amount) in raw where status > 0 {
        let d = today.adding(days: 60 - offset)
        byDay[d] = HabitEntry(
          day: d, status: status == 1 ? .done : .skipped,
          amount: status == 1 && measure != nil ? Amount(thousandths: Int64(amount)) : nil)
      }
      let list = Array(byDay.values)
      let rule = ReminderDueRule(habit: h, entries: list, calendar: calendar)
      let book = list.filter { $0.status == .done }
      let start = min(h.createdDay, book.map(\.day).min() ?? h.createdDay)
      let periods = ReferencePeriods.periods(
        of: h.frequency, from: start, through: today.adding(days: 90), firstWeekday: first)
      for offset in stride(from: 0, through: 60, by: 7) {
        let d = today.adding(days: offset)
        guard let period = periods.first(where: { $0.contains(d) }) else { continue }
        let inPeriod = book.filter { period.contains($0.day) }
        let doneToday = inPeriod.contains { $0.day == d }
        let expected: Bool =
          switch measure?.direction {
          case nil: !doneToday && inPeriod.count < h.frequency.times
          case .atLeast: inPeriod.compactMap(\.amount).reduce(.zero, +) < measure!.target
          case .atMost: !doneToday
          }
        #expect(rule.isDue(on: d) == expected, "\(d) in \(period)")
      }
    }
  }
}
