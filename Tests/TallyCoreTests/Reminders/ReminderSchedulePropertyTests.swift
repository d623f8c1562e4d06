import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct ReminderSchedulePropertyTests {
  /// Random zones, dates across 2011–2030 (often a DST day of the zone, Samoa's skipped day or
  /// a leap day), moments from the evening before that date to its end, times often in the
  /// small hours, switch hours, first weekdays, reminders, frequencies
  /// and entries: the engine agrees with the minute-scanning reference.
  @Test func matchesTheMinuteScanningReference() async {
    let reminder = zip(
      Gen.int(in: 0...4), ReminderFixtures.hour, Gen.int(in: 0...59), Gen.int(in: 0...23),
      Gen.int(in: 0...59), zip(Gen.bool(), Gen.int(in: 1...3), Gen.int(in: 1...23))
    ).map { kind, hour, minute, otherHour, otherMinute, everyChoice in
      let every = everyChoice.0 ? everyChoice.1 : everyChoice.2
      let first = try! WallTime(hour: hour, minute: minute)
      let second = try! WallTime(hour: otherHour, minute: otherMinute)
      switch kind {
      case 0: return Reminder.none
      case 1: return .single(first)
      default: return .periodic(start: min(first, second), end: max(first, second), everyHours: every)
      }
    }
    let habit = zip(reminder, Gen.int(in: 0...6), Gen.bool(0.1)).map { reminder, target, archived in
      try! Habit(
        id: UUID(), name: "Habit", createdDay: Day(ordinal: 0),
        frequency: target == 0 ? .daily : .weekly(targetPerWeek: target), reminder: reminder,
        archived: archived)
    }
    // 0 = no entry, 1 = done, 2 = skipped, for the days date−7 … date+7.
    let statuses = Gen.int(in: 0...2).array(of: 15)
    let setting = zip(Gen.int(in: 0...6), Gen<Weekday>.case)

    await propertyCheck(
      count: 300, input: setting, ReminderFixtures.zoneAndDate, Gen.int(in: -20 * 3600...24 * 3600), habit, statuses,
      Gen.int(in: 1...3)
    ) { setting, zoneAndDate, secondsFromLocalMidnight, habit, statuses, days in
      let (switchHour, firstWeekday) = setting
      let (zone, date) = zoneAndDate
      let timeZone = TimeZone(identifier: zone)!
      let calendar = try! DayCalendar(timeZone: timeZone, daySwitchHour: switchHour, firstWeekday: firstWeekday)
      let midnightAsUTC = Date(timeIntervalSince1970: TimeInterval(date.ordinal * 86_400))
      let now = midnightAsUTC.addingTimeInterval(
        TimeInterval(secondsFromLocalMidnight - timeZone.secondsFromGMT(for: midnightAsUTC)))
      let entries = statuses.enumerated().compactMap { offset, status -> HabitEntry? in
        status == 0 ? nil : HabitEntry(day: date.adding(days: offset - 7), status: status == 1 ? .done : .skipped)
      }
      let fast = try! ReminderSchedule(calendar: calendar)
        .occurrences(of: habit, entries: entries, after: now, days: days)
      let slow = ReferenceReminders.occurrences(
        of: habit, entries: entries, after: now, days: days, timeZone: timeZone,
        daySwitchHour: switchHour, firstWeekday: firstWeekday)
      #expect(fast == slow, "\(zone) switch \(switchHour) \(firstWeekday) now \(now) \(habit.reminder) \(habit.frequency)")
    }
  }
}
