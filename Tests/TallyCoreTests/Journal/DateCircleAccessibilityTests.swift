import Foundation
import TallyCore
import Testing

@Suite struct DateCircleAccessibilityTests {
  typealias F = JournalFixtures
  let calendar = F.calendar("America/New_York")

  func label(_ day: String, today: String, selected: Bool = false, entry: Bool = false, chat: Bool = false) -> String {
    DateCircleAccessibility.label(
      for: F.day(day), today: F.day(today), isSelected: selected, hasEntry: entry, hasChat: chat,
      calendar: calendar)
  }

  @Test func namesTheDateThenItsStatesInOrder() {
    #expect(label("2025-09-01", today: "2025-09-01", selected: true, entry: true) == "Monday 1 September, today, journal entry, selected")
    #expect(label("2025-08-30", today: "2025-09-01") == "Saturday 30 August")
    #expect(label("2025-08-30", today: "2025-09-01", chat: true) == "Saturday 30 August, chat")
    #expect(
      label("2025-08-31", today: "2025-09-01", selected: true, entry: true, chat: true)
        == "Sunday 31 August, journal entry, chat, selected")
  }

  @Test func addsTheYearOnlyWhenItIsNotThisYear() {
    #expect(label("2025-12-31", today: "2026-01-02") == "Wednesday 31 December 2025")
    #expect(label("2024-02-29", today: "2024-03-01") == "Thursday 29 February")
  }

  @Test func followsTheLocale() throws {
    let french = try DayCalendar(timeZone: calendar.timeZone, locale: .init(identifier: "fr_FR"))
    let text = DateCircleAccessibility.label(
      for: F.day("2025-09-01"), today: F.day("2025-09-02"), isSelected: false, hasEntry: false, hasChat: false,
      calendar: french)
    #expect(text == "lundi 1 septembre")
  }
}
