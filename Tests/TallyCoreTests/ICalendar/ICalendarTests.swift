import Foundation
import Testing

@testable import TallyCore

@Suite struct ICalendarWriterTests {
  @Test func textEscapesBackslashSemicolonCommaAndNewlines() {
    #expect(ICalendarWriter.escape(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
    #expect(ICalendarWriter.escape("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
    // Control characters other than tab cannot appear in TEXT: dropped, never sent raw.
    #expect(ICalendarWriter.escape("bell\u{07}tab\t") == "belltab\t")
  }

  @Test func linesEndInCRLFAndFoldAt75Octets() {
    var ics = ICalendarWriter()
    ics.text("SUMMARY", String(repeating: "a", count: 200))
    let text = ics.text
    #expect(text.hasSuffix("\r\n"))
    // "\r\n" is one Character in Swift: dropLast() removes the final line end.
    let lines = text.dropLast().components(separatedBy: "\r\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.utf8.count <= 75 })
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
    // Unfolding (drop each CRLF and the space after it) gives the line back.
    #expect(lines.first! + lines.dropFirst().map { String($0.dropFirst()) }.joined() == "SUMMARY:" + String(repeating: "a", count: 200))
  }

  /// A fold never splits a UTF-8 sequence, even when a multi-octet character straddles the
  /// 75th octet; a line of exactly 75 octets is not folded.
  @Test func foldingKeepsUTF8SequencesWhole() {
    for prefix in 0..<4 {
      let line = "SUMMARY:" + String(repeating: "x", count: prefix) + String(repeating: "🏃é漢", count: 20)
      let folded = ICalendarWriter.fold(line)
      let parts = folded.components(separatedBy: "\r\n")
      for part in parts {
        #expect(part.utf8.count <= 75)
        #expect(String(decoding: Array(part.utf8), as: UTF8.self) == part)
      }
      #expect(parts.first! + parts.dropFirst().map { String($0.dropFirst()) }.joined() == line)
    }
    let exact = String(repeating: "y", count: 75)
    #expect(ICalendarWriter.fold(exact) == exact)
    #expect(ICalendarWriter.fold(exact + "z").components(separatedBy: "\r\n") == [exact, " z"])
  }

  @Test func datesAndInstants() {
    #expect(ICalendarWriter.date(Day("2028-02-29")!) == "20280229")
    #expect(ICalendarWriter.utc(Date(timeIntervalSince1970: 1_772_953_200.9)) == "20260308T070000Z")
    #expect(ICalendarWriter.utc(Date(timeIntervalSince1970: -1)) == "19691231T235959Z")
  }
}

@Suite struct CalendarFeedTests {
  let stamp = Date(timeIntervalSince1970: 1_772_971_200)

  func habit(_ name: String, _ reminder: Reminder, icon: String? = nil) throws -> Habit {
    try Habit(id: UUID(), name: name, icon: icon, createdDay: Day("2026-01-01")!, reminder: reminder)
  }

  /// New York springs forward on 2026-03-08: a 02:30 reminder that day rings at 03:00 EDT
  /// (07:00Z), the day before at 02:30 EST (07:30Z), the day after at 02:30 EDT (06:30Z).
  @Test func reminderEventsAreUTCInstantsThatFollowTheWallClockAcrossDST() throws {
    let calendar = try DayCalendar(timeZone: TimeZone(identifier: "America/New_York")!)
    let walk = try habit("Walk; then, rest", .single(WallTime(hour: 2, minute: 30)), icon: "🚶")
    let now = Date(timeIntervalSince1970: 1_772_866_800)  // 2026-03-07 02:00 EST
    let occurrences = try ReminderSchedule(calendar: calendar).occurrences(
      of: walk, entries: [], after: now, days: 3)
    let ics = CalendarFeeds.reminders(occurrences, habits: [walk], stamp: stamp)
    let starts = ics.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART") }
    #expect(starts == ["DTSTART:20260307T073000Z", "DTSTART:20260308T070000Z", "DTSTART:20260309T063000Z"])
    #expect(ics.contains("SUMMARY:🚶 Walk\\; then\\, rest\r\n"))
    #expect(ics.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\n"))
    #expect(ics.contains("TRIGGER;RELATED=START:PT0S\r\n"))
    #expect(ics.contains("UID:reminder/\(walk.id.uuidString.lowercased())/2026-03-08/02:30@tally\r\n"))
    #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
  }

  /// UIDs name the habit and the day, so a second export of the same data has the same events.
  @Test func completionsAreAllDayEventsWithStableUIDs() throws {
    let read = try habit("Read", .none)
    let entries = [
      HabitEntry(day: Day("2028-02-29")!, status: .done, note: "Chapter 3,\nthen bed"),
      HabitEntry(day: Day("2028-02-28")!, status: .skipped),
      HabitEntry(day: Day("2028-02-27")!, status: .done),
    ]
    let ics = CalendarFeeds.completions([(read, entries)], stamp: stamp)
    let id = read.id.uuidString.lowercased()
    #expect(ics.components(separatedBy: "BEGIN:VEVENT").count == 3)
    #expect(ics.contains("UID:done/\(id)/2028-02-27@tally\r\nDTSTAMP:20260308T120000Z\r\nDTSTART;VALUE=DATE:20280227\r\nDTEND;VALUE=DATE:20280228\r\n"))
    #expect(ics.contains("DTSTART;VALUE=DATE:20280229\r\nDTEND;VALUE=DATE:20280301\r\n"))
    #expect(ics.contains("DESCRIPTION:Chapter 3\\,\\nthen bed\r\n"))
    #expect(!ics.contains("20280228\r\nDTEND"))
    let later = CalendarFeeds.completions([(read, entries.reversed())], stamp: stamp.addingTimeInterval(86_400))
    let uids = { (text: String) in text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") } }
    #expect(uids(later) == uids(ics))
  }

  @Test func aMeasurableDaysAmountIsInItsSummary() throws {
    let run = try Habit(
      id: UUID(), name: "Run", createdDay: Day("2028-02-01")!, measure: Measure(unit: "km", target: Amount(5)))
    let ics = CalendarFeeds.completions(
      [(run, [HabitEntry(day: Day("2028-02-29")!, status: .done, amount: try Amount(parsing: "5.2"))])], stamp: stamp)
    #expect(ics.contains("SUMMARY:✓ Run: 5.2 km\r\n"))
  }

  @Test func episodesAreAllDayEvents() throws {
    let show = try Show(id: UUID(), title: "Severance", status: .watching)
    let episode = try Episode(showID: show.id, season: 2, number: 10, title: "Cold Harbor", airDay: Day("2026-12-31")!)
    let ics = CalendarFeeds.episodes([episode], shows: [show], stamp: stamp)
    #expect(ics.contains("DTSTART;VALUE=DATE:20261231\r\nDTEND;VALUE=DATE:20270101\r\nSUMMARY:Severance S2E10: Cold Harbor\r\n"))
  }
}
