import Foundation
import TallyCore
import TallyCoreReference
import Testing

@Suite struct MonthViewGridTests {
  /// For each weekday, a month of 2025–2026 whose 1st falls on it (found with Foundation's
  /// calendar, not with `Day`).
  static let monthsStartingOnEachWeekday: [Month] = Weekday.allCases.map { weekday in
    (0..<24).lazy.map { Fixtures.month("2025-01").adding(months: $0) }
      .first { ReferenceCalendar.weekday(of: $0.firstDay) == weekday }!
  }

  @Test(arguments: Weekday.allCases)
  func fortyTwoConsecutiveDaysFromTheStartOfTheFirstWeek(firstWeekday: Weekday) throws {
    let calendar = Fixtures.calendar(firstWeekday: firstWeekday)
    for month in Self.monthsStartingOnEachWeekday {
      let view = try MonthView(
        month: month, country: "US", shows: [], episodes: [], calendar: calendar,
        today: month.firstDay)
      #expect(view.cells.count == 42)
      #expect(view.cells[0].day == ReferenceCalendar.startOfWeek(containing: month.firstDay, firstWeekday: firstWeekday))
      #expect(view.cells[0].day.weekday == firstWeekday)
      #expect(zip(view.cells, view.cells.dropFirst()).allSatisfy { $0.day.adding(days: 1) == $1.day })
      #expect(view.cells.filter(\.isInMonth).map(\.day) == Array(month.firstDay...month.lastDay))
      #expect(view.rows.count == 6 && view.rows.allSatisfy { $0.count == 7 })
      #expect(view.rows.allSatisfy { $0[0].day.weekday == firstWeekday })
      #expect(view.rows.flatMap { $0 } == view.cells)
    }
  }

  @Test func eachWeekdayHasAMonthStartingOnIt() {
    #expect(Set(Self.monthsStartingOnEachWeekday.map(\.firstDay.weekday)) == Set(Weekday.allCases))
  }

  /// September 2025 starts on a Monday: a Sunday-first grid borrows one day of August, a
  /// Monday-first grid none, a Tuesday-first grid six.
  @Test(arguments: [
    (Weekday.sunday, "2025-08-31", "2025-10-11"),
    (.monday, "2025-09-01", "2025-10-12"),
    (.tuesday, "2025-08-26", "2025-10-06"),
    (.saturday, "2025-08-30", "2025-10-10"),
  ])
  func septemberTwentyTwentyFiveGridBounds(firstWeekday: Weekday, first: String, last: String) throws {
    let view = try Fixtures.september(shows: [], episodes: [], calendar: Fixtures.calendar(firstWeekday: firstWeekday))
    #expect(view.cells.first?.day.description == first)
    #expect(view.cells.last?.day.description == last)
  }

  @Test(arguments: Weekday.allCases)
  func leapFebruaryIncludesTheTwentyNinth(firstWeekday: Weekday) throws {
    let view = try MonthView(
      month: Fixtures.month("2024-02"), country: "US", shows: [], episodes: [],
      calendar: Fixtures.calendar("Europe/Berlin", firstWeekday: firstWeekday),
      today: Fixtures.day("2024-02-29"))
    let inMonth = view.cells.filter(\.isInMonth)
    #expect(inMonth.count == 29)
    #expect(inMonth.last?.day.description == "2024-02-29")
    #expect(view.cells.filter(\.isToday).map(\.day.description) == ["2024-02-29"])
    #expect(view.cell(for: Fixtures.day("2024-03-01"))?.isInMonth == false)
  }

  /// February 2026 starts on a Sunday and has 28 days: with Sunday-first weeks it fills exactly
  /// four rows, and the grid still shows 42 days, the last two weeks from March.
  @Test func shortFebruaryStillFillsSixRows() throws {
    let view = try MonthView(
      month: Fixtures.month("2026-02"), country: "US", shows: [], episodes: [],
      calendar: Fixtures.newYork, today: Fixtures.day("2026-02-10"))
    #expect(view.cells.first?.day.description == "2026-02-01")
    #expect(view.cells.last?.day.description == "2026-03-14")
    #expect(view.rows[4].allSatisfy { !$0.isInMonth } && view.rows[5].allSatisfy { !$0.isInMonth })
  }

  @Test func todayIsMarkedOnlyOnItsCellAndMayBeOutsideTheGrid() throws {
    let view = try Fixtures.september(shows: [], episodes: [], today: "2025-10-02")
    #expect(view.cells.filter(\.isToday).map(\.day.description) == ["2025-10-02"])
    #expect(view.cell(for: Fixtures.day("2025-10-02"))?.isInMonth == false)
    let later = try Fixtures.september(shows: [], episodes: [], today: "2026-01-01")
    #expect(later.cells.allSatisfy { !$0.isToday })
  }

  @Test func cellLookupCoversExactlyTheGrid() throws {
    let view = try Fixtures.september(shows: [], episodes: [])
    #expect(view.cell(for: Fixtures.day("2025-08-31"))?.day.description == "2025-08-31")
    #expect(view.cell(for: Fixtures.day("2025-10-11"))?.day.description == "2025-10-11")
    #expect(view.cell(for: Fixtures.day("2025-08-30")) == nil)
    #expect(view.cell(for: Fixtures.day("2025-10-12")) == nil)
  }

  @Test func countryIsValidatedAndUpperCased() throws {
    let view = try Fixtures.september(shows: [], episodes: [], country: "au")
    #expect(view.country == "AU")
    #expect(throws: ValidationError.self) { try Fixtures.september(shows: [], episodes: [], country: "USA") }
    #expect(throws: ValidationError.self) { try Fixtures.september(shows: [], episodes: [], country: "") }
  }

  @Test func encodesAsJSONWithDaysAsText() throws {
    let show = Fixtures.show("Severance", ["US": [Fixtures.appleTV]])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-05"))
    let json = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any])
    #expect(json["month"] as? String == "2025-09")
    #expect(json["country"] as? String == "US")
    #expect(json["today"] as? String == "2025-09-15")
    #expect(json["firstWeekday"] as? String == "sunday")
    let cells = try #require(json["cells"] as? [[String: Any]])
    #expect(cells.count == 42)
    let friday = try #require(cells.first { $0["day"] as? String == "2025-09-05" })
    #expect(friday["isInMonth"] as? Bool == true)
    #expect((friday["display"] as? [String: Any])?["mode"] as? String == "logo")
    #expect(friday["accessibilityLabel"] as? String == "Apple TV Plus on Friday 5 September")
  }
}
