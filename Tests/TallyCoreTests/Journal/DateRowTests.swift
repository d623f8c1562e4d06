import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct DateRowTests {
  typealias F = JournalFixtures
  let today = F.day("2026-03-08")

  func row(chat: [Int] = [], assistantOnly: [Int] = [], entries: [Int] = [], selected: Int = 0, streak: Int = 0) -> DateRow {
    let activity = F.activity(
      chat: chat.map(today.adding(days:)), assistantOnly: assistantOnly.map(today.adding(days:)),
      entries: entries.map(today.adding(days:)))
    return DateRow(
      today: today, selectedDay: today.adding(days: selected), activity: activity, streak: streak,
      calendar: F.calendar())
  }

  @Test func holdsThirtyThreeDaysFromThirtyBeforeToTwoAfter() {
    let days = DateRow.days(today: today)
    #expect(days.count == 33)
    #expect(days.lowerBound == F.day("2026-02-06"))
    #expect(days.upperBound == F.day("2026-03-10"))
    #expect(row().cells.map(\.day) == Array(days))
    #expect(DateRow.days(today: F.day("2024-03-30")).lowerBound == F.day("2024-02-29"))
  }

  @Test func headerSingularAndPluralForms() {
    #expect(DateRow.headerText(streak: 0, chats: 0, entries: 0) == "0 Days Streak • 0 Chats • 0 Entries")
    #expect(DateRow.headerText(streak: 1, chats: 1, entries: 1) == "1 Day Streak • 1 Chat • 1 Entry")
    #expect(DateRow.headerText(streak: 2, chats: 12, entries: 8) == "2 Days Streak • 12 Chats • 8 Entries")
  }

  @Test func headerCountsDaysInTheWindowOnly() {
    let built = row(chat: [-31, -30, -1, 0, 2, 3], assistantOnly: [-2], entries: [-40, -5, 2, 3], streak: 1)
    #expect(built.chats == 4)
    #expect(built.entries == 2)
    #expect(built.streak == 1)
    #expect(built.header == "1 Day Streak • 4 Chats • 2 Entries")
    #expect(row().header == "0 Days Streak • 0 Chats • 0 Entries", "shown even when empty")
  }

  @Test func headerCountsMatchFilteringTheRawLists() async {
    await propertyCheck(
      count: 150, input: Gen.int(in: -20_000...30_000), Gen.int(in: -45...8).array(of: 0...40),
      Gen.int(in: -45...8).array(of: 0...20), Gen.int(in: -45...8).array(of: 0...20)
    ) { ordinal, chatOffsets, assistantOffsets, entryOffsets in
      let today = Day(ordinal: ordinal)
      let messages = chatOffsets.map { F.message(today.adding(days: $0)) }
        + assistantOffsets.map { F.message(today.adding(days: $0), .assistant) }
      let entries = entryOffsets.map { F.entry(today.adding(days: $0)) }
      let row = DateRow(
        today: today, selectedDay: today, activity: JournalActivity(entries: entries, messages: messages),
        streak: 0, calendar: F.calendar())
      let expected = ReferenceJournal.headerCounts(entries: entries, messages: messages, today: today)
      #expect(row.chats == expected.chats)
      #expect(row.entries == expected.entries)
      #expect(Array(DateRow.days(today: today)) == ReferenceJournal.dateRowDays(today: today))
    }
  }

  @Test func scrollTargetsInsideTheWindow() {
    // Index 30 is today.
    #expect(DateRow.scrollTarget(for: today, today: today) == .day(index: 25, anchor: .leading))
    for offset in -30 ... -25 {
      #expect(DateRow.scrollTarget(for: today.adding(days: offset), today: today) == .day(index: 0, anchor: .leading))
    }
    #expect(DateRow.scrollTarget(for: today.adding(days: -24), today: today) == .day(index: 1, anchor: .leading))
    #expect(DateRow.scrollTarget(for: today.adding(days: 2), today: today) == .day(index: 27, anchor: .leading))
  }

  @Test func scrollTargetsOutsideTheWindow() {
    #expect(DateRow.scrollTarget(for: today.adding(days: -31), today: today) == .header)
    #expect(DateRow.scrollTarget(for: today.adding(days: -400), today: today) == .header)
    #expect(DateRow.scrollTarget(for: today.adding(days: 3), today: today) == .day(index: 32, anchor: .trailing))
    #expect(row(selected: 10).scrollTarget == .day(index: 32, anchor: .trailing))
  }

  @Test func scrollTargetWireShape() throws {
    #expect(try F.json(DateRowScrollTarget.header) == #"{"kind":"header"}"#)
    let target = DateRowScrollTarget.day(index: 32, anchor: .trailing)
    #expect(try F.json(target) == #"{"anchor":"trailing","index":32,"kind":"day"}"#)
    #expect(try JSONDecoder().decode(DateRowScrollTarget.self, from: Data(try F.json(target).utf8)) == target)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(DateRowScrollTarget.self, from: Data(#"{"kind":"middle"}"#.utf8))
    }
  }

  @Test func rowCirclesShowOnlyTodaysNumber() {
    let cells = row(chat: [-1], entries: [-2], selected: -3).cells
    #expect(cells.filter { $0.style.dayNumber != nil }.map(\.day) == [today])
    #expect(cells.allSatisfy { $0.centre == nil })
    #expect(cells.first { $0.day == today.adding(days: -3) }?.isSelected == true)
  }
}
