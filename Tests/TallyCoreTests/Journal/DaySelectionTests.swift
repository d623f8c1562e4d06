import TallyCore
import Testing

@Suite struct DaySelectionTests {
  typealias F = JournalFixtures
  let today = F.day("2026-03-08")

  @Test func dragEmitsOncePerNewDay() {
    var selection = DaySelection(today: today)
    let a = today.adding(days: -1)
    let b = today.adding(days: -2)
    // Pointer path: start on today, wobble, cross a gap, go to a, stay, b, gap, back to a.
    let path: [Day?] = [today, today, nil, a, a, a, nil, b, b, nil, a]
    let emitted = path.compactMap { selection.point(at: $0) }
    #expect(emitted == [a, b, a])
    #expect(selection.selected == a)
  }

  @Test func aGapNeverClearsTheSelection() {
    var selection = DaySelection(today: today, selected: today.adding(days: -4))
    #expect(selection.point(at: nil) == nil)
    #expect(selection.selected == today.adding(days: -4))
  }

  @Test func tapSelectsAndTappingTheSelectedDayIsQuiet() {
    var selection = DaySelection(today: today)
    let day = F.day("2026-02-28")
    #expect(selection.point(at: day) == day)
    #expect(selection.point(at: day) == nil)
    #expect(selection.selected == day)
  }

  @Test func todayButtonShowsOnlyAwayFromTodayAndReturns() {
    var selection = DaySelection(today: today)
    #expect(!selection.showsTodayButton)
    #expect(selection.returnToToday() == nil, "already on today: nothing to do")
    _ = selection.point(at: today.adding(days: 3))
    #expect(selection.showsTodayButton)
    #expect(selection.returnToToday() == today)
    #expect(selection.selected == today)
    #expect(!selection.showsTodayButton)
  }

  @Test func scrubbingTheGridThroughHitTesting() throws {
    let layout = try DatePickerGridLayout(width: 372)
    var selection = DaySelection(today: today)
    // Drag along the first row from its first circle to its third, through the gaps.
    let y = layout.centre(ofCell: 0).y
    let xs = stride(from: layout.centre(ofCell: 0).x, through: layout.centre(ofCell: 2).x, by: 2.0)
    let emitted = xs.compactMap { selection.point(at: layout.day(at: GridPoint(x: $0, y: y), today: today)) }
    #expect(emitted == Array(layout.days(today: today).prefix(3)))
  }
}
