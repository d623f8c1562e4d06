import Foundation
import PropertyBased
import Testing
import TallyCore
import TallyCoreReference

/// Chosen weekdays and pauses against the slow reference: every schedule kind, all four kinds
/// of habit (yes/no, at least, at most; daily and periodic), random pauses that may overlap or
/// stay open, in the SPEC zones with every switch hour and first weekday.
@Suite struct SchedulePropertyTests {
  static let input = zip(
    Gen.int(in: 1_262_304_000...1_956_528_000),  // now, 2010–2031
    Gen.int(in: 0..<specZones.count), Gen.int(in: 0...6), Gen<Weekday>.case,
    Gen.int(in: -3...200),  // how many days before today the habit was created
    zip(Gen.int(in: 0...4), Gen.int(in: 1...6), Gen.int(in: 2...40), Gen.int(in: 1...126)),  // kind, k, n, weekday bits
    zip(Gen.int(in: 0...2), Gen.int(in: 1...12_000)),  // 0 yes/no, 1 at least, 2 at most; target thousandths
    zip(Gen.int(in: -3...230), Gen.int(in: 0...2), Gen.int(in: 0...9_000)).array(of: 0...150),
    zip(Gen.int(in: -60...230), Gen.int(in: 0...40), Gen.int(in: 0...5)).array(of: 0...3)  // start back, length, open
  )

  static func frequency(_ schedule: (Int, Int, Int, Int), measurable: Bool) -> Frequency {
    if schedule.0 == 4 {
      let bits = schedule.3 == 127 ? 0b0101010 : schedule.3
      return .weekdays(try! WeekdaySet(bits: UInt8(bits)))
    }
    return MeasurablePropertyTests.frequency(schedule.0, schedule.1, schedule.2, measurable: measurable)
  }

  struct Case {
    var habit: Habit
    var entries: [HabitEntry]
    var pauses: [ClosedRange<Day>]
    var today: Day
    var calendar: DayCalendar
  }

  static func make(
    _ seconds: Int, _ zone: Int, _ switchHour: Int, _ first: Weekday, _ age: Int, _ schedule: (Int, Int, Int, Int),
    _ kind: (Int, Int), _ raw: [(Int, Int, Int)], _ rawPauses: [(Int, Int, Int)], dayShift: Int = 0
  ) -> Case {
    let calendar = try! DayCalendar(timeZone: specZones[zone], daySwitchHour: switchHour, firstWeekday: first)
    let today = calendar.day(containing: Date(timeIntervalSince1970: TimeInterval(seconds)))
    let measure: Measure? =
      kind.0 == 0 ? nil
      : try! Measure(unit: "km", target: Amount(thousandths: Int64(kind.1)), direction: kind.0 == 1 ? .atLeast : .atMost)
    let habit = try! Habit(
      id: UUID(), name: "Run", createdDay: today.adding(days: -age),
      frequency: frequency(schedule, measurable: measure != nil), measure: measure)
    var byDay: [Day: HabitEntry] = [:]
    for (offset, status, amount) in raw where status > 0 {
      let d = today.adding(days: dayShift - offset)
      let done = status == 1
      byDay[d] = HabitEntry(
        day: d, status: done ? .done : .skipped, amount: done && measure != nil ? Amount(thousandths: Int64(amount)) : nil)
    }
    let pauses = rawPauses.map { back, length, open in
      let from = today.adding(days: dayShift - back)
      return from...(open == 0 ? Pause.latest : from.adding(days: length))
    }
    return Case(habit: habit, entries: Array(byDay.values), pauses: pauses, today: today, calendar: calendar)
  }

  @Test func statisticsMatchTheReference() async {
    await propertyCheck(count: 300, input: Self.input) { seconds, zone, hour, first, age, schedule, kind, raw, pauses in
      let c = Self.make(seconds, zone, hour, first, age, schedule, kind, raw, pauses)
      let history = HabitHistory(c.entries).pausing(PausedDays(c.pauses))
      let fast = HabitStatistics(habit: c.habit, history: history, today: c.today, firstWeekday: first)
      let slow = ReferenceStatistics.statistics(
        habit: c.habit, entries: c.entries, today: c.today, firstWeekday: first, pauses: c.pauses)
      expectSameFigures(fast, slow)
    }
  }

  @Test func remindersSkipNeutralDays() async {
    await propertyCheck(count: 200, input: Self.input) { seconds, zone, hour, first, age, schedule, kind, raw, pauses in
      let c = Self.make(seconds, zone, hour, first, age, schedule, kind, raw, pauses, dayShift: 60)
      let rule = ReminderDueRule(habit: c.habit, entries: c.entries, paused: PausedDays(c.pauses), calendar: c.calendar)
      for offset in stride(from: 0, through: 60, by: 3) {
        let d = c.today.adding(days: offset)
        guard
          let expected = ReferencePeriods.isDue(
            habit: c.habit, entries: c.entries, pauses: c.pauses, on: d, firstWeekday: first)
        else { continue }
        #expect(rule.isDue(on: d) == expected, "\(d)")
      }
    }
  }

  @Test func gridStatesSayWhyADayIsNeutral() async {
    await propertyCheck(count: 100, input: Self.input) { seconds, zone, hour, first, age, schedule, kind, raw, pauses in
      let c = Self.make(seconds, zone, hour, first, age, schedule, kind, raw, pauses)
      let history = HabitHistory(c.entries).pausing(PausedDays(c.pauses))
      let grid = HabitGrid(habit: c.habit, history: history, today: c.today, firstWeekday: first, weekCount: 20)
      let status = Dictionary(uniqueKeysWithValues: c.entries.map { ($0.day, $0.status) })
      let weekdays: Set<Weekday>? = if case .weekdays(let set) = c.habit.frequency { Set(set) } else { nil }
      for cell in grid.weeks.joined() where cell.day <= c.today {
        let neutral: HabitGrid.State? =
          c.pauses.contains { $0.contains(cell.day) } ? .paused
          : weekdays.map { $0.contains(ReferenceCalendar.weekday(of: cell.day)) } == false ? .unscheduled : nil
        switch status[cell.day] {
        case .done?: #expect(cell.state == .done)
        case .skipped?: #expect(cell.state == .skipped)
        default: #expect(neutral == nil ? [.empty, .beforeStart].contains(cell.state) : cell.state == neutral)
        }
      }
    }
  }
}
