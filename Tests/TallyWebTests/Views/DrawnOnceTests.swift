import Foundation
import Synchronization
import TallyCore
import TallyLocalization
import Testing

@testable import TallyWeb

@Suite struct DrawnOnceTests {
  final class Draws: Sendable {
    let count = Mutex(0)
  }

  static let today = Day("2026-03-08")!

  static func grid(
    entryDays: Set<Day>, selected: Day = today, speech: PageSpeech = .english
  ) throws -> Spoken<DatePickerGrid> {
    let calendar = try DayCalendar(timeZone: .gmt, daySwitchHour: 0)
    let grid = DatePickerGrid(
      layout: try DatePickerGridLayout(width: 390), today: today, selectedDay: selected,
      activity: JournalActivity(entryDays: entryDays), calendar: calendar, showGridDates: true)
    return Spoken(source: grid, days: PageDays(speech: speech, calendar: calendar), today: today)
  }

  static func markup(_ grid: TodayModel.DateGrid) -> [Markup] { grid.rows.map(\.markup) }

  /// A mark changes no circle, so its page reuses the markup; a journal entry, another
  /// selected day or another language changes one, and that grid is drawn afresh, as drawing
  /// it anew would.
  @Test func aGridIsDrawnOnceAndAgainWhenAnyCircleDiffers() throws {
    let draws = Draws()
    let drawn = DrawnOnce<Spoken<DatePickerGrid>, TodayModel.DateGrid>(capacity: 8) { grid in
      draws.count.withLock { $0 += 1 }
      return TodayModel.grid(for: grid)
    }
    let plain = try Self.grid(entryDays: [])
    let written = try Self.grid(entryDays: [Self.today.adding(days: -2)])
    let elsewhere = try Self.grid(entryDays: [], selected: Self.today.adding(days: -3))
    let german = try Self.grid(entryDays: [], speech: PageLanguages.speech(.german))
    #expect(Self.markup(drawn(plain)) == Self.markup(drawn(plain)))
    #expect(draws.count.withLock { $0 } == 1)
    for other in [written, elsewhere, german] {
      let kept = drawn(other)
      #expect(Self.markup(kept) == Self.markup(TodayModel.grid(for: other)))
      #expect(Self.markup(kept) != Self.markup(TodayModel.grid(for: plain)))
    }
    #expect(draws.count.withLock { $0 } == 4)
  }

  @Test func itKeepsNoMoreThanItsCapacity() throws {
    let drawn = DrawnOnce<Spoken<DatePickerGrid>, TodayModel.DateGrid>(capacity: 4, draw: TodayModel.grid(for:))
    for offset in 0..<10 {
      _ = drawn(try Self.grid(entryDays: [], selected: Self.today.adding(days: -offset)))
      #expect(drawn.count <= 4)
    }
  }
}
