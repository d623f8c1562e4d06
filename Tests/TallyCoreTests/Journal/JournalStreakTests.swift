import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct JournalStreakTests {
  typealias F = JournalFixtures
  let today = F.day("2026-03-08")
  let berlin = F.calendar()

  func streak(chat: [Int], assistantOnly: [Int] = [], calendar: DayCalendar? = nil) -> Int {
    let activity = F.activity(
      chat: chat.map(today.adding(days:)), assistantOnly: assistantOnly.map(today.adding(days:)))
    return JournalStreak.length(activity: activity, today: today, calendar: calendar ?? berlin)
  }

  @Test func countsConsecutiveDaysBackFromYesterday() {
    #expect(streak(chat: []) == 0)
    #expect(streak(chat: [-1]) == 1)
    #expect(streak(chat: [-1, -2, -3]) == 3)
  }

  @Test func todayNeverCounts() {
    #expect(streak(chat: [0]) == 0)
    #expect(streak(chat: [0, -1, -2]) == 2)
    // Future days with chat do not count either.
    #expect(streak(chat: [1, 2, -1]) == 1)
  }

  @Test func aGapEndsTheRun() {
    #expect(streak(chat: [-2, -3, -4]) == 0, "no chat yesterday: nothing to count")
    #expect(streak(chat: [-1, -2, -4, -5, -6]) == 2)
  }

  @Test func assistantOnlyDaysBreakTheRun() {
    #expect(streak(chat: [-1, -3], assistantOnly: [-2]) == 1)
    #expect(streak(chat: [], assistantOnly: [-1, -2]) == 0)
  }

  @Test func runsAcrossLeapDaysAndDSTChanges() {
    let leap = F.day("2024-03-01")
    let days = (1...3).map { leap.adding(days: -$0) }  // 29, 28, 27 February
    #expect(days[0] == F.day("2024-02-29"))
    for zone in F.zoneNames {
      let activity = F.activity(chat: days)
      #expect(JournalStreak.length(activity: activity, today: leap, calendar: F.calendar(zone)) == 3)
    }
    // Berlin sprang forward on 2026-03-29; New York and Lord Howe changed in early April / March.
    let springDays = (1...10).map { F.day("2026-04-08").adding(days: -$0) }
    for zone in F.zoneNames {
      let streak = JournalStreak.length(
        activity: F.activity(chat: springDays), today: F.day("2026-04-08"), calendar: F.calendar(zone, daySwitchHour: 3))
      #expect(streak == 10, "\(zone)")
    }
  }

  @Test func aDateTheZoneSkippedNeitherBreaksNorCounts() {
    // Samoa jumped from 29 to 31 December 2011.
    let apia = F.calendar("Pacific/Apia")
    let newYear = F.day("2012-01-01")
    let activity = F.activity(chat: [F.day("2011-12-31"), F.day("2011-12-29"), F.day("2011-12-28")])
    #expect(!apia.hasInstants(on: F.day("2011-12-30")))
    #expect(JournalStreak.length(activity: activity, today: newYear, calendar: apia) == 3)
    // Everywhere else the 30th was an ordinary day without chat.
    #expect(JournalStreak.length(activity: activity, today: newYear, calendar: berlin) == 1)
    // With the day switching at 02:00, Apia's 30th is the first two hours of the 31st: it
    // existed, so it breaks the run like any day without chat.
    let apiaLate = F.calendar("Pacific/Apia", daySwitchHour: 2)
    #expect(apiaLate.hasInstants(on: F.day("2011-12-30")))
    #expect(JournalStreak.length(activity: activity, today: newYear, calendar: apiaLate) == 1)
  }

  @Test func badgeText() {
    #expect(JournalStreak.badge(forLength: 0) == nil)
    #expect(JournalStreak.badge(forLength: 1) == "1 Day Streak")
    #expect(JournalStreak.badge(forLength: 2) == "2 Days Streak")
    #expect(JournalStreak.badge(forLength: 31) == "31 Days Streak")
  }

  @Test func matchesTheReferenceWalkInEveryZone() async {
    // Message days are taken from instants by each zone's day rule, so skipped dates, DST
    // nights and switch hours all shape the runs being counted.
    let dayRange = 15_200...15_420  // 2011-08 … 2012-03, around Samoa's skipped day
    await propertyCheck(
      count: 60,
      input: Gen.int(in: 0..<F.zoneNames.count), Gen.int(in: 0...6),
      Gen.int(in: dayRange), Gen.int(in: 0..<(8 * 96)).array(of: 0...40)
    ) { zoneIndex, switchHour, todayOrdinal, quarterHoursBack in
      let calendar = F.calendar(F.zoneNames[zoneIndex], daySwitchHour: switchHour)
      let now = Date(timeIntervalSince1970: Double(todayOrdinal) * 86_400 + 43_200)
      let today = calendar.day(containing: now)
      let messages = quarterHoursBack.map { back in
        try! ChatMessage(
          id: UUID(), role: .user, text: "hi", sentAt: now.addingTimeInterval(-Double(back) * 900), calendar: calendar)
      }
      let activity = JournalActivity(entries: [], messages: messages)
      let expected = ReferenceJournal.streak(
        messages: messages, today: today, timeZone: calendar.timeZone, daySwitchHour: switchHour)
      #expect(JournalStreak.length(activity: activity, today: today, calendar: calendar) == expected)
    }
  }

  @Test func matchesTheReferenceOnArbitraryDays() async {
    await propertyCheck(
      count: 200, input: Gen.int(in: -3_000...30_000), Gen.int(in: -20...3).array(of: 0...30), Gen.int(in: -5...0).array(of: 0...5)
    ) { todayOrdinal, chatOffsets, assistantOffsets in
      let today = Day(ordinal: todayOrdinal)
      let messages = chatOffsets.map { F.message(today.adding(days: $0)) }
        + assistantOffsets.map { F.message(today.adding(days: $0), .assistant) }
      let calendar = F.calendar("Asia/Kolkata")
      #expect(
        JournalStreak.length(activity: JournalActivity(entries: [], messages: messages), today: today, calendar: calendar)
          == ReferenceJournal.streak(messages: messages, today: today, timeZone: calendar.timeZone, daySwitchHour: 0))
    }
  }
}
