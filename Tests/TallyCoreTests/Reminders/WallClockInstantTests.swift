import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct WallClockInstantTests {
  typealias F = ReminderFixtures

  /// (zone, date, wall time, expected instant with its offset)
  @Test(arguments: [
    // New York springs forward 02:00 → 03:00 EDT: the gap maps onto 03:00 EDT.
    ("America/New_York", "2026-03-08", "01:59", "2026-03-08T01:59:00-05:00"),
    ("America/New_York", "2026-03-08", "02:00", "2026-03-08T03:00:00-04:00"),
    ("America/New_York", "2026-03-08", "02:30", "2026-03-08T03:00:00-04:00"),
    ("America/New_York", "2026-03-08", "02:59", "2026-03-08T03:00:00-04:00"),
    ("America/New_York", "2026-03-08", "03:00", "2026-03-08T03:00:00-04:00"),
    ("America/New_York", "2026-03-08", "08:00", "2026-03-08T08:00:00-04:00"),
    // New York falls back 02:00 EDT → 01:00 EST: 01:xx happens twice, the first counts.
    ("America/New_York", "2026-11-01", "00:59", "2026-11-01T00:59:00-04:00"),
    ("America/New_York", "2026-11-01", "01:00", "2026-11-01T01:00:00-04:00"),
    ("America/New_York", "2026-11-01", "01:30", "2026-11-01T01:30:00-04:00"),
    ("America/New_York", "2026-11-01", "02:00", "2026-11-01T02:00:00-05:00"),
    // Berlin: 02:00 → 03:00 CEST in March, 03:00 CEST → 02:00 CET in October.
    ("Europe/Berlin", "2026-03-29", "02:30", "2026-03-29T03:00:00+02:00"),
    ("Europe/Berlin", "2026-03-29", "03:00", "2026-03-29T03:00:00+02:00"),
    ("Europe/Berlin", "2026-03-29", "01:59", "2026-03-29T01:59:00+01:00"),
    ("Europe/Berlin", "2026-10-25", "02:30", "2026-10-25T02:30:00+02:00"),
    ("Europe/Berlin", "2026-10-25", "03:00", "2026-10-25T03:00:00+01:00"),
    // Lord Howe shifts by 30 minutes: 02:00 → 01:30 in April, 02:00 → 02:30 in October.
    ("Australia/Lord_Howe", "2026-04-05", "01:29", "2026-04-05T01:29:00+11:00"),
    ("Australia/Lord_Howe", "2026-04-05", "01:45", "2026-04-05T01:45:00+11:00"),
    ("Australia/Lord_Howe", "2026-04-05", "02:00", "2026-04-05T02:00:00+10:30"),
    ("Australia/Lord_Howe", "2026-10-04", "01:59", "2026-10-04T01:59:00+10:30"),
    ("Australia/Lord_Howe", "2026-10-04", "02:00", "2026-10-04T02:30:00+11:00"),
    ("Australia/Lord_Howe", "2026-10-04", "02:15", "2026-10-04T02:30:00+11:00"),
    ("Australia/Lord_Howe", "2026-10-04", "02:30", "2026-10-04T02:30:00+11:00"),
    // Samoa skipped 2011-12-30: every time that date maps to 2011-12-31 00:00 +14.
    ("Pacific/Apia", "2011-12-29", "23:59", "2011-12-29T23:59:00-10:00"),
    ("Pacific/Apia", "2011-12-30", "00:00", "2011-12-31T00:00:00+14:00"),
    ("Pacific/Apia", "2011-12-30", "12:00", "2011-12-31T00:00:00+14:00"),
    ("Pacific/Apia", "2011-12-30", "23:59", "2011-12-31T00:00:00+14:00"),
    ("Pacific/Apia", "2011-12-31", "00:00", "2011-12-31T00:00:00+14:00"),
    ("Pacific/Apia", "2011-12-31", "09:00", "2011-12-31T09:00:00+14:00"),
    // Kolkata has a half-hour offset and no DST.
    ("Asia/Kolkata", "2026-03-08", "02:30", "2026-03-08T02:30:00+05:30"),
    ("Asia/Kolkata", "2026-11-01", "01:30", "2026-11-01T01:30:00+05:30"),
    // Leap day.
    ("Europe/Berlin", "2024-02-29", "08:00", "2024-02-29T08:00:00+01:00"),
    ("Asia/Kolkata", "2024-02-29", "23:59", "2024-02-29T23:59:00+05:30"),
  ])
  func mapsWallClockToInstant(zone: String, date: String, time: String, expected: String) throws {
    let calendar = try F.calendar(zone)
    let instant = calendar.instant(of: try F.time(time), on: try F.day(date))
    #expect(instant == (try F.instant(expected)), "\(zone) \(date) \(time)")
  }

  @Test func aDoubledTimeMapsToItsEarlierOccurrence() throws {
    let calendar = try F.calendar("America/New_York")
    let first = calendar.instant(of: try F.time("01:30"), on: try F.day("2026-11-01"))
    #expect(first.addingTimeInterval(3600) == (try F.instant("2026-11-01T01:30:00-05:00")))
  }

  @Test func matchesTheMinuteScanningReference() async {
    await propertyCheck(
      count: 400, input: ReminderFixtures.zoneAndDate, ReminderFixtures.hour, Gen.int(in: 0...59)
    ) { zoneAndDate, hour, minute in
      let (zone, date) = zoneAndDate
      let timeZone = TimeZone(identifier: zone)!
      let calendar = try! DayCalendar(timeZone: timeZone)
      let time = try! WallTime(hour: hour, minute: minute)
      #expect(
        calendar.instant(of: time, on: date)
          == ReferenceReminders.instant(of: time, on: date, timeZone: timeZone),
        "\(zone) \(date) \(time)")
    }
  }
}
