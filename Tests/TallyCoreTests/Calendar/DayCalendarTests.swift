import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct DayMappingTests {
  func calendar(_ zone: String, switchHour: Int = 0) -> DayCalendar {
    try! DayCalendar(timeZone: TimeZone(identifier: zone)!, daySwitchHour: switchHour)
  }

  func instant(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
  }

  @Test func hoursBeforeTheSwitchBelongToThePreviousDay() {
    let c = calendar("Europe/Berlin", switchHour: 4)
    #expect(c.day(containing: instant("2026-06-10T03:59:59+02:00")) == day("2026-06-09"))
    #expect(c.day(containing: instant("2026-06-10T04:00:00+02:00")) == day("2026-06-10"))
    #expect(calendar("Europe/Berlin").day(containing: instant("2026-06-10T00:00:00+02:00")) == day("2026-06-10"))
  }

  @Test func theSwitchIsAWallClockRuleAcrossDST() {
    // SPEC 1's example: 01:30 local on the spring-forward night with a switch at 2.
    let c = calendar("America/New_York", switchHour: 2)
    #expect(c.day(containing: instant("2026-03-08T01:30:00-05:00")) == day("2026-03-07"))
    // 03:00 EDT comes straight after 01:59 EST: the new day starts there.
    #expect(c.day(containing: instant("2026-03-08T03:00:00-04:00")) == day("2026-03-08"))
    // Fall back: both 01:30s (EDT, then EST) belong to the previous day.
    #expect(c.day(containing: instant("2026-11-01T01:30:00-04:00")) == day("2026-10-31"))
    #expect(c.day(containing: instant("2026-11-01T01:30:00-05:00")) == day("2026-10-31"))
    #expect(c.day(containing: instant("2026-11-01T02:00:00-05:00")) == day("2026-11-01"))
  }

  @Test func lordHoweShiftsByHalfAnHour() {
    // 5 April 2026: clocks go from 02:00 (+11) back to 01:30 (+10:30).
    let c = calendar("Australia/Lord_Howe", switchHour: 2)
    #expect(c.day(containing: instant("2026-04-05T01:45:00+11:00")) == day("2026-04-04"))
    #expect(c.day(containing: instant("2026-04-05T01:45:00+10:30")) == day("2026-04-04"))
    #expect(c.day(containing: instant("2026-04-05T02:00:00+10:30")) == day("2026-04-05"))
  }

  @Test func apiaSkippedTheThirtiethOfDecember2011() {
    let c = calendar("Pacific/Apia")
    // The last instant of 29 December (UTC−10) is followed by 31 December (UTC+14).
    #expect(c.day(containing: instant("2011-12-29T23:59:59-10:00")) == day("2011-12-29"))
    #expect(c.day(containing: instant("2011-12-30T10:00:00Z")) == day("2011-12-31"))
  }

  @Test func kolkataIsHalfAnHourOffTheHour() {
    let c = calendar("Asia/Kolkata", switchHour: 1)
    #expect(c.day(containing: instant("2026-01-01T19:29:59Z")) == day("2026-01-01"))  // 00:59:59 IST
    #expect(c.day(containing: instant("2026-01-01T19:30:00Z")) == day("2026-01-02"))  // 01:00 IST
  }

  @Test func rejectsASwitchHourOutOfRange() {
    #expect(throws: ValidationError(field: "daySwitchHour", rule: "must be a whole hour from 0 to 6, not 7")) {
      try DayCalendar(timeZone: .gmt, daySwitchHour: 7)
    }
    #expect(throws: ValidationError.self) { try DayCalendar(timeZone: .gmt, daySwitchHour: -1) }
  }

  @Test func matchesTheReferenceInEveryZoneAndSwitchHour() async {
    // Instants 2010–2031, so every zone's DST changes (and Apia's lost day) are crossed.
    let input = zip(
      Gen.int(in: 1_262_304_000...1_956_528_000), Gen.int(in: 0..<specZones.count),
      Gen.int(in: 0...6))
    await propertyCheck(count: 3000, input: input) { seconds, zoneIndex, switchHour in
      let moment = Date(timeIntervalSince1970: TimeInterval(seconds))
      let zone = specZones[zoneIndex]
      let fast = try! DayCalendar(timeZone: zone, daySwitchHour: switchHour).day(containing: moment)
      let slow = ReferenceCalendar.day(containing: moment, timeZone: zone, daySwitchHour: switchHour)
      #expect(fast == slow, "\(moment) in \(zone.identifier), switch \(switchHour)")
    }
  }

  @Test func everyTransitionInstantMapsLikeTheReference() {
    // Both sides of each DST transition, every switch hour.
    for zone in specZones {
      var cursor = Date(timeIntervalSince1970: 1_262_304_000)
      while let next = zone.nextDaylightSavingTimeTransition(after: cursor),
        next < Date(timeIntervalSince1970: 1_956_528_000)
      {
        for offset in [-3600.0, -1800, -1, 0, 1, 1800, 3600] {
          let moment = next.addingTimeInterval(offset)
          for switchHour in DayCalendar.daySwitchHours {
            let fast = try! DayCalendar(timeZone: zone, daySwitchHour: switchHour).day(containing: moment)
            let slow = ReferenceCalendar.day(containing: moment, timeZone: zone, daySwitchHour: switchHour)
            #expect(fast == slow, "\(moment) in \(zone.identifier), switch \(switchHour)")
          }
        }
        cursor = next
      }
    }
  }
}

@Suite struct WeekTests {
  func calendar(_ first: Weekday) -> DayCalendar {
    try! DayCalendar(timeZone: .gmt, firstWeekday: first)
  }

  @Test func startOfWeekIsTheLatestFirstWeekdayOnOrBefore() {
    // Wednesday 4 March 2026.
    #expect(calendar(.sunday).startOfWeek(containing: day("2026-03-04")) == day("2026-03-01"))
    #expect(calendar(.monday).startOfWeek(containing: day("2026-03-04")) == day("2026-03-02"))
    #expect(calendar(.wednesday).startOfWeek(containing: day("2026-03-04")) == day("2026-03-04"))
    #expect(calendar(.thursday).startOfWeek(containing: day("2026-03-04")) == day("2026-02-26"))
    // Across a leap day and a year end.
    #expect(calendar(.monday).startOfWeek(containing: day("2024-03-01")) == day("2024-02-26"))
    #expect(calendar(.saturday).startOfWeek(containing: day("2027-01-01")) == day("2026-12-26"))
  }

  @Test func fullWeeksCoveringFollowsSPEC() {
    let c = calendar(.sunday)
    #expect(c.fullWeeksCovering(day("2026-03-05"), day("2026-03-04")).isEmpty)
    let one = c.fullWeeksCovering(day("2026-03-03"), day("2026-03-05"))
    #expect(one == Array(day("2026-03-01")...day("2026-03-07")))
    let same = c.fullWeeksCovering(day("2026-03-04"), day("2026-03-04"))
    #expect(same.count == 7)
    let span = c.fullWeeksCovering(day("2024-02-28"), day("2024-03-01"))
    #expect(span.first == day("2024-02-25") && span.last == day("2024-03-02"))
    #expect(span.contains(day("2024-02-29")))
  }

  @Test func weekMathMatchesTheReference() async {
    let input = zip(Gen.int(in: -40_000...60_000), Gen.int(in: -3...40), Gen<Weekday>.case)
    await propertyCheck(count: 500, input: input) { ordinal, length, first in
      let a = Day(ordinal: ordinal)
      let b = a.adding(days: length)
      let c = calendar(first)
      #expect(c.startOfWeek(containing: a) == ReferenceCalendar.startOfWeek(containing: a, firstWeekday: first))
      #expect(a.startOfWeek(firstWeekday: first) == ReferenceCalendar.startOfWeek(containing: a, firstWeekday: first))
      let weeks = c.fullWeeksCovering(a, b)
      #expect(weeks == ReferenceCalendar.fullWeeksCovering(a, b, firstWeekday: first))
      #expect(weeks.count % 7 == 0)
      #expect(weeks.first.map { $0.weekday == first } ?? (a > b))
    }
  }

  /// The week holding "now": the user's day of an instant (zone, DST, switch hour), then its
  /// week's start, for every first weekday.
  @Test func theWeekHoldingAnInstantStartsWhereTheReferenceSaysInEveryZone() async {
    // Instants 2010–2031, so every zone's DST changes (and Apia's lost day) are crossed.
    let input = zip(
      Gen.int(in: 1_262_304_000...1_956_528_000), Gen.int(in: 0..<specZones.count), Gen.int(in: 0...6))
    await propertyCheck(count: 1000, input: input) { seconds, zoneIndex, switchHour in
      let moment = Date(timeIntervalSince1970: TimeInterval(seconds))
      let zone = specZones[zoneIndex]
      let slowDay = ReferenceCalendar.day(containing: moment, timeZone: zone, daySwitchHour: switchHour)
      for first in Weekday.allCases {
        let c = try! DayCalendar(timeZone: zone, daySwitchHour: switchHour, firstWeekday: first)
        let slow = ReferenceCalendar.startOfWeek(containing: slowDay, firstWeekday: first)
        #expect(
          c.startOfWeek(containing: c.day(containing: moment)) == slow, "\(moment) in \(zone.identifier), \(first)")
        #expect(c.day(containing: moment).startOfWeek(firstWeekday: first) == slow)
      }
    }
  }

  @Test func weeksAroundLeapDaysStartWhereTheReferenceSays() {
    // 2000 and 2024 have a 29 February, 2100 and 2023 do not.
    for year in [2000, 2023, 2024, 2100] {
      for a in Day(year: year, month: 2, day: 15)!...Day(year: year, month: 3, day: 15)! {
        for first in Weekday.allCases {
          let slow = ReferenceCalendar.startOfWeek(containing: a, firstWeekday: first)
          #expect(a.startOfWeek(firstWeekday: first) == slow, "\(a), \(first)")
        }
      }
    }
  }

  @Test func orderedWeekdaysStartAtTheFirstWeekday() {
    for first in Weekday.allCases {
      let ordered = calendar(first).orderedWeekdays
      #expect(ordered.first == first)
      #expect(Set(ordered).count == 7)
    }
  }

  @Test func dayLettersAreLocalized() throws {
    let english = try DayCalendar(timeZone: .gmt, locale: Locale(identifier: "en_US"))
    #expect(english.orderedWeekdays.map(english.dayLetter(for:)).joined() == "SMTWTFS")
    let french = try DayCalendar(timeZone: .gmt, firstWeekday: .monday, locale: Locale(identifier: "fr_FR"))
    #expect(french.dayLetter(for: day("2026-03-02")) == "L")  // lundi
    #expect(french.orderedWeekdays.map(french.dayLetter(for:)).joined() == "LMMJVSD")
    let german = try DayCalendar(timeZone: .gmt, locale: Locale(identifier: "de_DE"))
    #expect(german.dayLetter(for: .thursday) == "D")
  }
}
