import Foundation
import PropertyBased
import TallyCore
import Testing

@Suite struct ReminderDayTests {
  typealias F = ReminderFixtures

  @Test(arguments: 0...6)
  func timesBeforeTheSwitchHourFireOnTheNextDate(switchHour: Int) throws {
    let calendar = try F.calendar("Asia/Kolkata", daySwitchHour: switchHour)
    let monday = try F.day("2026-03-02")
    for hour in 0...23 {
      for minute in [0, 59] {
        let time = try WallTime(hour: hour, minute: minute)
        let expected = hour < switchHour ? monday.adding(days: 1) : monday
        #expect(calendar.date(of: time, inUserDay: monday) == expected, "\(time), switch \(switchHour)")
      }
    }
  }

  @Test func theSwitchHourItselfStartsTheDay() throws {
    let calendar = try F.calendar("Europe/Berlin", daySwitchHour: 4)
    let day = try F.day("2026-06-10")
    #expect(calendar.instant(of: try F.time("04:00"), inUserDay: day)
      == (try F.instant("2026-06-10T04:00:00+02:00")))
    #expect(calendar.instant(of: try F.time("03:59"), inUserDay: day)
      == (try F.instant("2026-06-11T03:59:00+02:00")))
  }

  /// Wherever the wall time exists (outside DST gaps), a reminder's instant lies in the user's day it belongs to, for every
  /// switch hour: the two wall-clock rules agree.
  @Test func instantsFallInsideTheirOwnDay() async {
    await propertyCheck(
      count: 400, input: ReminderFixtures.zoneAndDate, Gen.int(in: 0...6), ReminderFixtures.hour,
      Gen.int(in: 0...59)
    ) { zoneAndDate, switchHour, hour, minute in
      let (zone, day) = zoneAndDate
      let calendar = try! DayCalendar(timeZone: TimeZone(identifier: zone)!, daySwitchHour: switchHour)
      let time = try! WallTime(hour: hour, minute: minute)
      let date = calendar.date(of: time, inUserDay: day)
      let instant = calendar.instant(of: time, inUserDay: day)
      if wallClockReads(time, on: date, at: instant, in: calendar) {
        #expect(calendar.day(containing: instant) == day, "\(zone) \(day) \(time) switch \(switchHour)")
      }
    }
  }

  @Test func aGapCanPushAnEarlyTimePastTheSwitchHour() throws {
    // Switch hour 3: 02:30 on Sunday 2026-03-08 still belongs to Saturday, but New York has no
    // 02:30 that night, so it fires at 03:00 EDT, which the clock already counts as Sunday.
    let calendar = try F.calendar("America/New_York", daySwitchHour: 3)
    let saturday = try F.day("2026-03-07")
    let instant = calendar.instant(of: try F.time("02:30"), inUserDay: saturday)
    #expect(instant == (try F.instant("2026-03-08T03:00:00-04:00")))
    #expect(calendar.day(containing: instant) == saturday.adding(days: 1))
  }

  private func wallClockReads(_ time: WallTime, on date: Day, at instant: Date, in calendar: DayCalendar) -> Bool {
    let parts = calendar.gregorian.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
    return Day(year: parts.year!, month: parts.month!, day: parts.day!) == date
      && parts.hour == time.hour && parts.minute == time.minute
  }
}
