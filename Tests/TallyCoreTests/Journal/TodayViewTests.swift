import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct TodayViewTests {
  typealias F = JournalFixtures
  let today = F.day("2026-03-08")

  func view(
    width: Double = 372, selected: Int = 0, settings: TodaySettings = TodaySettings(),
    calendar: DayCalendar = F.calendar()
  ) throws -> TodayView {
    let activity = F.activity(
      chat: [-1, -2, -3, -10, 1].map(today.adding(days:)), assistantOnly: [-4].map(today.adding(days:)),
      entries: [-2, -40].map(today.adding(days:)))
    return try TodayView(
      width: width, today: today, selectedDay: today.adding(days: selected), activity: activity,
      calendar: calendar, settings: settings)
  }

  @Test func assemblesStreakHeaderAndGrid() throws {
    let today = try view()
    #expect(today.streak == 3)
    #expect(today.streakBadge == "3 Days Streak")
    #expect(today.dateRow.header == "3 Days Streak • 5 Chats • 1 Entry")
    #expect(!today.showsTodayButton)
    let grid = try #require(today.grid)
    #expect(grid.layout.columns == 11)
    #expect(grid.cells.count == 66)
    #expect(grid.cells.last?.day == F.day("2026-03-12"))
    #expect(grid.cells.map(\.day) == grid.layout.days(today: self.today))
    #expect(grid.cells.filter(\.isSelected).map(\.day) == [self.today])
    #expect(grid.cells.enumerated().allSatisfy { $1.centre == grid.layout.centre(ofCell: $0) })
    let yesterday = try #require(grid.cells.first { $0.day == self.today.adding(days: -2) })
    #expect(yesterday.hasEntry && yesterday.hasChat && yesterday.tense == .past)
    #expect(yesterday.style.entryFill != nil && yesterday.style.chatDot == nil)
    #expect(yesterday.dayNumber == 6)
  }

  @Test func selectingAnotherDayShowsTheTodayButton() throws {
    let away = try view(selected: -5)
    #expect(away.showsTodayButton)
    #expect(away.selectedDay == today.adding(days: -5))
    #expect(away.dateRow.scrollTarget == .day(index: 20, anchor: .leading))
    #expect(away.grid?.cells.filter(\.isSelected).map(\.day) == [today.adding(days: -5)])
  }

  @Test func settingsHideTheGridAndShowItsNumbers() throws {
    #expect(try view(settings: TodaySettings(showDatePickerGrid: false)).grid == nil)
    let numbered = try #require(try view(settings: TodaySettings(showGridDates: true)).grid)
    #expect(numbered.cells.allSatisfy { $0.style.dayNumber != nil })
    let plain = try #require(try view().grid)
    #expect(plain.cells.filter { $0.style.dayNumber != nil }.map(\.day) == [today])
  }

  @Test func settingsDefaultsAndDecoding() throws {
    #expect(TodaySettings() == TodaySettings(showDatePickerGrid: true, showGridDates: false))
    #expect(try JSONDecoder().decode(TodaySettings.self, from: Data("{}".utf8)) == TodaySettings())
    let partial = try JSONDecoder().decode(TodaySettings.self, from: Data(#"{"showGridDates":true}"#.utf8))
    #expect(partial == TodaySettings(showDatePickerGrid: true, showGridDates: true))
  }

  @Test func zeroStreakHidesTheBadgeButNotTheHeader() throws {
    let empty = try TodayView(width: 390, today: today, activity: JournalActivity(), calendar: F.calendar())
    #expect(empty.streak == 0)
    #expect(empty.streakBadge == nil)
    #expect(empty.dateRow.header == "0 Days Streak • 0 Chats • 0 Entries")
  }

  @Test func badWidthIsRejected() {
    #expect(throws: ValidationError.self) {
      try TodayView(width: -10, today: today, activity: JournalActivity(), calendar: F.calendar())
    }
  }

  @Test func theFirstWeekdayDoesNotMoveTheGrid() throws {
    let views = try Weekday.allCases.map { try view(calendar: F.calendar(firstWeekday: $0)) }
    #expect(Set(views).count == 1, "the grid ends at T+4 and fills row by row, not by weeks")
  }

  /// Today comes from an instant by the user's rules; the grid and row follow it through DST
  /// nights, the leap day and Samoa's missing day.
  @Test(arguments: [
    ("America/New_York", 2, "2026-03-08T01:30:00-05:00", "2026-03-07"),
    ("America/New_York", 0, "2026-11-01T01:30:00-04:00", "2026-11-01"),
    ("Europe/Berlin", 0, "2024-02-29T23:59:00+01:00", "2024-02-29"),
    // 01:30 UTC is 03:30 on Berlin's wall clock that night: past the 03:00 switch, so a new day.
    ("Europe/Berlin", 3, "2026-03-29T02:30:00+01:00", "2026-03-29"),
    ("Europe/Berlin", 3, "2026-03-29T01:30:00+01:00", "2026-03-28"),
    ("Australia/Lord_Howe", 2, "2026-04-05T01:45:00+11:00", "2026-04-04"),
    ("Australia/Lord_Howe", 0, "2026-10-04T02:30:00+11:00", "2026-10-04"),
    ("Pacific/Apia", 0, "2011-12-31T00:30:00+14:00", "2011-12-31"),
    ("Asia/Kolkata", 6, "2024-03-01T05:59:00+05:30", "2024-02-29"),
  ])
  func todayFromTheClock(zone: String, switchHour: Int, now: String, expected: String) throws {
    let calendar = F.calendar(zone, daySwitchHour: switchHour)
    let today = calendar.day(containing: F.instant(now))
    #expect(today == F.day(expected))
    let view = try TodayView(width: 372, today: today, activity: JournalActivity(), calendar: calendar)
    #expect(view.grid?.cells.last?.day == today.adding(days: 4))
    #expect(view.grid?.cells.first { $0.tense == .today }?.day == today)
    #expect(view.dateRow.cells.last?.day == today.adding(days: 2))
  }

  @Test func perDayStatesMatchTheRawLists() async {
    await propertyCheck(
      count: 60, input: Gen.double(in: 200...650), Gen.int(in: 0...40_000), Gen.int(in: -90...6),
      Gen.int(in: -90...6).array(of: 0...30), Gen.int(in: -90...6).array(of: 0...15)
    ) { width, ordinal, selectedOffset, chatOffsets, entryOffsets in
      let today = Day(ordinal: ordinal)
      let messages = chatOffsets.map { F.message(today.adding(days: $0)) }
      let entries = entryOffsets.map { F.entry(today.adding(days: $0)) }
      let view = try! TodayView(
        width: width, today: today, selectedDay: today.adding(days: selectedOffset),
        activity: JournalActivity(entries: entries, messages: messages), calendar: F.calendar("Asia/Kolkata"))
      let grid = view.grid!
      #expect(grid.cells.map(\.day) == ReferenceJournal.gridDays(columns: grid.layout.columns, rows: 6, today: today))
      for cell in grid.cells + view.dateRow.cells {
        #expect(cell.hasChat == ReferenceJournal.hasChat(cell.day, in: messages))
        #expect(cell.hasEntry == entries.contains { $0.day == cell.day })
        #expect(cell.isSelected == (cell.day == view.selectedDay))
      }
    }
  }

  @Test func jsonShape() throws {
    let json = try F.json(try view(selected: -1))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(
      Set(object.keys)
        == ["today", "selectedDay", "showsTodayButton", "streak", "streakBadge", "settings", "dateRow", "grid"])
    #expect(object["today"] as? String == "2026-03-08")
    #expect(object["streakBadge"] as? String == "3 Days Streak")
    let grid = try #require(object["grid"] as? [String: Any])
    let layout = try #require(grid["layout"] as? [String: Any])
    #expect(layout["columns"] as? Int == 11)
    let firstCell = try #require((grid["cells"] as? [[String: Any]])?.first)
    #expect(
      Set(firstCell.keys)
        == ["day", "dayNumber", "tense", "isSelected", "hasEntry", "hasChat", "accessibilityLabel", "style", "centre"])
    let row = try #require(object["dateRow"] as? [String: Any])
    #expect(Set(row.keys) == ["header", "streak", "chats", "entries", "scrollTarget", "cells"])
    #expect(try JSONDecoder().decode(TodayView.self, from: Data(json.utf8)) == (try view(selected: -1)))
  }
}
