import Foundation
import TallyCore
import Testing

@Suite struct ICSParserTests {
  static let utc = TimeZone(identifier: "UTC")!
  static let newYork = TimeZone(identifier: "America/New_York")!

  /// Close to what Sonarr's /feed/calendar/Sonarr.ics sends: CRLF, folded lines, UTC times,
  /// escaped commas, and a VALARM whose properties are not the event's.
  static let sonarr = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//sonarr.tv//Sonarr//EN",
    "X-WR-CALNAME:Sonarr TV Schedule",
    "BEGIN:VEVENT",
    "UID:NzbDrone_episode_1234",
    "DTSTAMP:20250901T120000Z",
    "DTSTART:20250903T020000Z",
    "DTEND:20250903T030000Z",
    "SUMMARY:The Last of Us - 2x01 - Future Days\\, Past Days",
    "DESCRIPTION:Joel and Ellie\\nface the future.",
    "BEGIN:VALARM",
    "TRIGGER:-PT15M",
    "SUMMARY:Alarm, not the episode",
    "DTSTART:19700101T000000Z",
    "END:VALARM",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:NzbDrone_episode_1235",
    "DTSTART;VALUE=DATE:20250910",
    "SUMMARY:The Last of Us - 2x02 - A Very Long Episode Title That Sonarr Folds Over Sev",
    " eral Lines Because It Is Longer Than",
    "\t Seventy-Five Octets",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].joined(separator: "\r\n")

  @Test func readsSonarrsFeedWithCRLFFoldingAndAlarms() throws {
    let events = try ICSParser.events(in: Self.sonarr, floatingTimeZone: Self.utc)
    #expect(events.count == 2)
    #expect(events[0].uid == "NzbDrone_episode_1234")
    #expect(events[0].summary == "The Last of Us - 2x01 - Future Days, Past Days")
    #expect(events[0].start == .instant(Date(timeIntervalSince1970: 1_756_864_800)))
    #expect(
      events[1].summary
        == "The Last of Us - 2x02 - A Very Long Episode Title That Sonarr Folds Over Several Lines Because It Is Longer Than Seventy-Five Octets"
    )
    #expect(events[1].start == .allDay(Day("2025-09-10")!))
  }

  @Test func bareLFAndCRLineEndsReadTheSame() throws {
    let crlf = try ICSParser.events(in: Self.sonarr, floatingTimeZone: Self.utc)
    let lf = try ICSParser.events(in: Self.sonarr.replacingOccurrences(of: "\r\n", with: "\n"), floatingTimeZone: Self.utc)
    let cr = try ICSParser.events(in: Self.sonarr.replacingOccurrences(of: "\r\n", with: "\r"), floatingTimeZone: Self.utc)
    #expect(lf == crlf)
    #expect(cr == crlf)
  }

  /// SPEC: an episode airing 02:00 UTC is the previous day in New York.
  @Test func aTimedEventAirsOnItsDateInTheUsersZone() throws {
    let event = try ICSParser.events(in: Self.sonarr, floatingTimeZone: Self.utc)[0]
    #expect(event.day(in: Self.newYork) == Day("2025-09-02"))
    #expect(event.day(in: Self.utc) == Day("2025-09-03"))
    #expect(event.day(in: TimeZone(identifier: "Europe/Berlin")!) == Day("2025-09-03"))
    #expect(event.day(in: TimeZone(identifier: "Asia/Kolkata")!) == Day("2025-09-03"))
    // Apia is UTC+13: 02:00 UTC is already afternoon of the same date.
    #expect(event.day(in: TimeZone(identifier: "Pacific/Apia")!) == Day("2025-09-03"))
  }

  @Test func anAllDayEventKeepsItsDateInEveryZone() throws {
    let event = try ICSParser.events(in: Self.sonarr, floatingTimeZone: Self.utc)[1]
    for zone in specZones {
      #expect(event.day(in: zone) == Day("2025-09-10"))
    }
  }

  static func calendar(_ lines: String...) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n")
  }

  @Test func aTZIDTimeIsThatZonesWallClockEvenAcrossDST() throws {
    let text = Self.calendar(
      "BEGIN:VEVENT", "SUMMARY:A - 1x01", "DTSTART;TZID=Europe/Berlin:20250330T023000", "END:VEVENT",
      "BEGIN:VEVENT", "SUMMARY:B - 1x01", "DTSTART;TZID=\"/mozilla.org/20070129_1/Australia/Lord_Howe\":20251005T013000", "END:VEVENT",
      "BEGIN:VEVENT", "SUMMARY:C - 1x01", "DTSTART:20250302T233000", "END:VEVENT")
    let events = try ICSParser.events(in: text, floatingTimeZone: Self.newYork)
    // 02:30 does not exist in Berlin on 30 March 2025 (spring forward): it moves to 03:30 CEST.
    #expect(events[0].start == .instant(Date(timeIntervalSince1970: 1_743_298_200)))
    #expect(events[0].day(in: Self.utc) == Day("2025-03-30"))
    // Lord Howe's 01:30 on 5 October 2025 is still +10:30; the prefix path is not a zone name.
    #expect(events[1].start == .instant(Date(timeIntervalSince1970: 1_759_590_000)))
    // A floating time is read in the zone the caller gives: 23:30 in New York is 04:30 UTC.
    #expect(events[2].day(in: Self.newYork) == Day("2025-03-02"))
    #expect(events[2].day(in: Self.utc) == Day("2025-03-03"))
  }

  @Test func aLeapDayAllDayEventIsRead() throws {
    let text = Self.calendar("BEGIN:VEVENT", "SUMMARY:Leap - 1x01", "DTSTART;VALUE=DATE:20280229", "END:VEVENT")
    #expect(try ICSParser.events(in: text, floatingTimeZone: Self.utc)[0].start == .allDay(Day("2028-02-29")!))
  }

  @Test func escapedTextIsUnescaped() throws {
    let text = Self.calendar(
      "BEGIN:VEVENT", #"SUMMARY:Law \& Order\; SVU - 1x01 - A\\B\, C"#, "DTSTART:20250101", "END:VEVENT")
    #expect(try ICSParser.events(in: text, floatingTimeZone: Self.utc)[0].summary == #"Law & Order; SVU - 1x01 - A\B, C"#)
  }

  @Test func badInputIsRefusedNamingTheLine() {
    #expect(throws: ValidationError(field: "calendar", rule: "must be an iCalendar file starting with BEGIN:VCALENDAR")) {
      try ICSParser.events(in: "<html>Not found</html>", floatingTimeZone: Self.utc)
    }
    #expect(
      throws: ValidationError(
        field: "calendar",
        rule: "line 4 has DTSTART '20250230', which is not a date (20250902) or a time (20250902T020000Z)")
    ) {
      try ICSParser.events(
        in: Self.calendar("BEGIN:VEVENT", "DTSTART;VALUE=DATE:20250230", "END:VEVENT"), floatingTimeZone: Self.utc)
    }
    #expect(
      throws: ValidationError(
        field: "calendar", rule: "line 4 names the time zone 'Mars/Olympus', which is not an IANA zone like Europe/Berlin")
    ) {
      try ICSParser.events(
        in: Self.calendar("BEGIN:VEVENT", "DTSTART;TZID=Mars/Olympus:20250101T100000", "END:VEVENT"),
        floatingTimeZone: Self.utc)
    }
    #expect(throws: ValidationError(field: "calendar", rule: "has an event at line 3 without a DTSTART")) {
      try ICSParser.events(in: Self.calendar("BEGIN:VEVENT", "SUMMARY:x", "END:VEVENT"), floatingTimeZone: Self.utc)
    }
  }
}

@Suite struct EpisodeFeedTests {
  @Test func summariesNameShowSeasonNumberAndTitle() {
    #expect(EpisodeFeed.summary("The Last of Us - 2x01 - Future Days")! == ("The Last of Us", 2, 1, "Future Days"))
    #expect(EpisodeFeed.summary("Show - S01E02 - Title")! == ("Show", 1, 2, "Title"))
    // A show title holding " - ", and an episode title holding one.
    #expect(EpisodeFeed.summary("Star Trek - Picard - 3x10 - The Last Generation - Part 2")! == ("Star Trek - Picard", 3, 10, "The Last Generation - Part 2"))
    #expect(EpisodeFeed.summary("Show - 1x03")! == ("Show", 1, 3, nil))
    #expect(EpisodeFeed.summary("Dentist appointment") == nil)
    #expect(EpisodeFeed.summary(" - 1x01 - Nameless") == nil)
    #expect(EpisodeFeed.summary("Show - 1x+1 - Sign") == nil)
  }

  @Test func eventsBecomeEpisodesOnTheUsersDayAndRepeatsKeepTheLast() throws {
    let events = [
      ICSEvent(uid: "a", summary: "Severance - 2x01 - Hello, Ms. Cobel", start: .instant(Date(timeIntervalSince1970: 1_737_079_200))),
      ICSEvent(uid: "b", summary: "Not an episode", start: .allDay(Day("2025-01-17")!)),
      ICSEvent(uid: "c", summary: "severance - 2x01 - Hello, Ms. Cobel (moved)", start: .allDay(Day("2025-01-18")!)),
      ICSEvent(uid: "d", summary: "Severance - 2x02", start: .allDay(Day("2025-01-24")!)),
    ]
    let result = EpisodeFeed.episodes(from: events, timeZone: TimeZone(identifier: "America/New_York")!)
    #expect(result.skipped == ["Not an episode"])
    #expect(result.episodes.map(\.title) == ["Hello, Ms. Cobel (moved)", "Episode 2"])
    #expect(result.episodes.map(\.airDay) == [Day("2025-01-18"), Day("2025-01-24")])
  }

  @Test func twoUTCAirsOnThePreviousDayInNewYork() {
    // 2025-01-17T02:00:00Z
    let event = ICSEvent(uid: nil, summary: "Severance - 2x01 - Hello", start: .instant(Date(timeIntervalSince1970: 1_737_079_200)))
    let newYork = EpisodeFeed.episodes(from: [event], timeZone: TimeZone(identifier: "America/New_York")!)
    let kolkata = EpisodeFeed.episodes(from: [event], timeZone: TimeZone(identifier: "Asia/Kolkata")!)
    #expect(newYork.episodes[0].airDay == Day("2025-01-16"))
    #expect(kolkata.episodes[0].airDay == Day("2025-01-17"))
  }
}
