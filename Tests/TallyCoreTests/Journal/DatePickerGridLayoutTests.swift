import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct DatePickerGridLayoutTests {
  typealias F = JournalFixtures

  func layout(_ width: Double) -> DatePickerGridLayout {
    try! DatePickerGridLayout(width: width)
  }

  @Test func specExample() {
    let grid = layout(372)
    #expect(grid.columns == 11)
    #expect(abs(grid.spacing - 9.8) < 1e-9)
    #expect(grid.leadingOffset == 0)
    #expect(grid.rows == 6)
    #expect(grid.dayCount == 66)
  }

  /// For each column count: the widest width it takes (spacing exactly 20) and the narrowest
  /// (spacing exactly 8, or just above where the next count would also fit at 8).
  @Test(arguments: [
    (234.0, 7), (264.0, 8), (294.0, 9), (324.0, 10), (354.0, 11), (384.0, 12), (414.0, 13), (444.0, 14),
  ])
  func everyColumnCountIsReachableAtSpacingEight(width: Double, columns: Int) {
    // A = 30n − 8 gives s = 8 exactly for n columns; n + 1 would need s < 8 there.
    let grid = layout(width)
    #expect(grid.columns == columns)
    #expect(grid.spacing == 8)
    #expect(grid.leadingOffset == 0)
  }

  @Test func justNarrowerThanSpacingEightFallsToFewerColumns() {
    #expect(layout(443.9).columns == 13)
    #expect(layout(353.9).columns == 10)
    #expect(layout(263.9).columns == 7)
  }

  @Test func spacingTwentyIsTheTopOfTheRange() {
    // 14 columns at spacing 20 need A = 568, W = 600.
    let widest = layout(600)
    #expect(widest.columns == 14)
    #expect(widest.spacing == 20)
    #expect(widest.leadingOffset == 0)
    // 7 columns at spacing 20 (A = 274) is never chosen: 9 columns fit there at 9.5.
    #expect(layout(306).columns == 9)
    #expect(layout(306).spacing == 9.5)
  }

  @Test func tooWideCentresFourteenColumnsAtSpacingTwenty() {
    for (width, offset) in [(601.0, 0.5), (700, 50), (1024, 212)] {
      let grid = layout(width)
      #expect(grid.columns == 14)
      #expect(grid.spacing == 20)
      #expect(grid.leadingOffset == offset)
      // Centred: the same space either side of the circles.
      let right = width - 16 - (grid.gridLeft + 14 * 22 + 13 * 20)
      #expect(abs(right - grid.leadingOffset) < 1e-9)
    }
  }

  @Test func tooNarrowKeepsSevenColumnsAndShrinksTheSpacing() {
    let justBelow = layout(233)  // A = 201
    #expect(justBelow.columns == 7)
    #expect(abs(justBelow.spacing - 47.0 / 6) < 1e-9)
    #expect(layout(210).spacing == 4)  // A = 178
    #expect(layout(186).spacing == 0)  // A = 154: circles touch
    #expect(layout(100).spacing == 0)  // never negative
    #expect(layout(0).columns == 7)
    #expect(layout(0).leadingOffset == 0)
  }

  @Test func rejectsWidthsThatAreNotPoints() {
    for bad in [-1.0, .nan, .infinity, -.infinity] {
      #expect(throws: ValidationError.self) { try DatePickerGridLayout(width: bad) }
    }
  }

  @Test func chosenSpacingIsReadableAndColumnsAreAsManyAsFit() async {
    await propertyCheck(count: 500, input: Gen.double(in: 0...1500)) { width in
      let grid = layout(width)
      let available = width - 32
      #expect((7...14).contains(grid.columns))
      let used = 22 * Double(grid.columns) + grid.spacing * Double(grid.columns - 1)
      if available > 568 {
        #expect(grid.columns == 14 && grid.spacing == 20)
        #expect(abs(grid.leadingOffset * 2 + used - available) < 1e-9)
      } else if available < 202 {
        #expect(grid.columns == 7 && grid.spacing == max(0, (available - 154) / 6))
      } else {
        #expect((8.0...20.0).contains(grid.spacing))
        #expect(abs(used - available) < 1e-9, "the circles fill the width exactly")
        if grid.columns < 14 {
          let more = Double(grid.columns + 1)
          #expect((available - 22 * more) / (more - 1) < 8, "one more column would have fit")
        }
      }
    }
  }

  // MARK: Relayout

  @Test func changesOfAPointOrLessKeepTheLayout() throws {
    let grid = layout(372)
    #expect(!grid.needsRelayout(forWidth: 373))
    #expect(!grid.needsRelayout(forWidth: 371))
    #expect(!grid.needsRelayout(forWidth: 372.5))
    #expect(grid.needsRelayout(forWidth: 373.01))
    #expect(grid.needsRelayout(forWidth: 370.99))
    // Kept layouts are the very same layout, width included.
    #expect(try grid.adjusted(toWidth: 373) == grid)
    #expect(try grid.adjusted(toWidth: 373.5).width == 373.5)
    // Crossing a column boundary by half a point does not relayout; by more it does.
    let thirteen = layout(444 - 0.5)
    #expect(thirteen.columns == 13)
    #expect(try thirteen.adjusted(toWidth: 444).columns == 13)
    #expect(try thirteen.adjusted(toWidth: 445).columns == 14)
  }

  @Test func driftIsMeasuredFromTheLaidOutWidth() throws {
    var grid = layout(372)
    var relaidOut: [Bool] = []
    for width in [372.6, 373.2, 373.8, 374.4] {
      let next = try grid.adjusted(toWidth: width)
      relaidOut.append(next.width != grid.width)
      grid = next
    }
    // 373.2 is 1.2 from 372; 373.8 only 0.6 from 373.2; 374.4 is 1.2 from it.
    #expect(relaidOut == [false, true, false, true])
    #expect(grid.width == 374.4)
  }

  // MARK: Days

  @Test func gridDaysEndFourDaysAfterTodayRowByRow() {
    let grid = layout(372)
    let today = F.day("2024-03-01")
    let days = grid.days(today: today)
    #expect(days.count == 66)
    #expect(days.last == F.day("2024-03-05"))
    #expect(days.first == F.day("2023-12-31"))
    #expect(days.contains(F.day("2024-02-29")))
    #expect(zip(days, days.dropFirst()).allSatisfy { $0.adding(days: 1) == $1 })
    #expect(grid.firstDay(today: today) == days.first)
  }

  @Test func gridDaysMatchTheReferenceStepping() async {
    await propertyCheck(count: 200, input: Gen.double(in: 150...700), Gen.int(in: -50_000...50_000)) { width, ordinal in
      let grid = layout(width)
      let today = Day(ordinal: ordinal)
      #expect(grid.days(today: today) == ReferenceJournal.gridDays(columns: grid.columns, rows: 6, today: today))
    }
  }

  // MARK: Geometry and hit-testing

  @Test func centresAndHitTestsForTheSpecExample() {
    let grid = layout(372)
    #expect(grid.centre(ofCell: 0) == GridPoint(x: 27, y: 11))
    #expect(grid.centre(ofCell: 1) == GridPoint(x: 27 + 31.8, y: 11))
    #expect(grid.centre(ofCell: 11) == GridPoint(x: 27, y: 11 + 31.8))
    let last = grid.centre(ofCell: 65)
    #expect(abs(last.x - (372 - 16 - 11)) < 1e-9, "the last column's circle touches the right padding")
    for index in 0..<grid.dayCount {
      #expect(grid.cell(at: grid.centre(ofCell: index)) == index)
    }
  }

  @Test func gapsBelongHalfToEachNeighbour() {
    let grid = layout(372)  // spacing 9.8: circle 0 spans x 16…38, circle 1 starts at 47.8
    #expect(grid.cell(at: GridPoint(x: 42.89, y: 11)) == 0)
    #expect(grid.cell(at: GridPoint(x: 42.91, y: 11)) == 1)
    #expect(grid.cell(at: GridPoint(x: 16 - 4.8, y: 11)) == 0)
    #expect(grid.cell(at: GridPoint(x: 16 - 5, y: 11)) == nil)
    #expect(grid.cell(at: GridPoint(x: 27, y: -5)) == nil)
    #expect(grid.cell(at: GridPoint(x: 27, y: -4.8)) == 0)
    let bottom = grid.centre(ofCell: 55).y + 11 + 4.9
    #expect(grid.cell(at: GridPoint(x: 27, y: bottom - 0.01)) == 55)
    #expect(grid.cell(at: GridPoint(x: 27, y: bottom)) == nil)
    #expect(grid.cell(at: GridPoint(x: 372, y: 11)) == nil)
  }

  @Test func hitTestingACentredGrid() {
    let grid = layout(700)  // offset 50
    #expect(grid.cell(at: GridPoint(x: 16 + 50 + 11, y: 11)) == 0)
    #expect(grid.cell(at: GridPoint(x: 16 + 40, y: 11)) == 0, "half the 20-point gap before the first circle")
    #expect(grid.cell(at: GridPoint(x: 16 + 39.9, y: 11)) == nil)
    #expect(grid.day(at: GridPoint(x: 16 + 50 + 11, y: 11), today: F.day("2026-03-08")) == grid.firstDay(today: F.day("2026-03-08")))
  }

  @Test func dayUnderThePointerIsTheCellsDay() {
    let grid = layout(372)
    let today = F.day("2026-03-08")
    let days = grid.days(today: today)
    for index in [0, 10, 11, 37, 65] {
      #expect(grid.day(at: grid.centre(ofCell: index), today: today) == days[index])
    }
    #expect(grid.day(at: GridPoint(x: 0, y: 0), today: today) == nil)
  }

  @Test func hitTestingMatchesCheckingEveryCell() async {
    await propertyCheck(
      count: 400, input: Gen.double(in: 150...800), Gen.double(in: -20...820), Gen.double(in: -20...220)
    ) { width, x, y in
      let grid = layout(width)
      let point = GridPoint(x: x, y: y)
      #expect(
        grid.cell(at: point)
          == ReferenceJournal.cell(at: point, columns: grid.columns, rows: 6, spacing: grid.spacing, gridLeft: grid.gridLeft))
    }
  }

  @Test func codesAllFieldsAndDecodesFromTheWidth() throws {
    let grid = layout(372)
    let json = try F.json(grid)
    #expect(json == #"{"columns":11,"dayCount":66,"leadingOffset":0,"rows":6,"spacing":9.8,"width":372}"#)
    #expect(try JSONDecoder().decode(DatePickerGridLayout.self, from: Data(json.utf8)) == grid)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(DatePickerGridLayout.self, from: Data(#"{"width":-3}"#.utf8))
    }
  }
}
