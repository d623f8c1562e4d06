import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct DayTests {
  @Test func epochIsAThursday() {
    let epoch = Day(ordinal: 0)
    #expect(epoch.description == "1970-01-01")
    #expect(epoch.weekday == .thursday)
  }

  @Test func parsesOnlyTheStrictForm() {
    #expect(Day("2024-02-29") == Day(year: 2024, month: 2, day: 29))
    for bad in ["2023-02-29", "2024-2-29", "2024-13-01", "2024-00-10", "24-02-01", "2024/02/01",
                "2024-02-01T00:00", "", "abcd-ef-gh", "2024-04-31", "1900-02-29"] {
      #expect(Day(bad) == nil, "\(bad) should be rejected")
    }
    #expect(Day("2000-02-29") != nil)
  }

  @Test func codesAsText() throws {
    let day = try #require(Day("2026-03-08"))
    let data = try JSONEncoder().encode([day])
    #expect(String(decoding: data, as: UTF8.self) == #"["2026-03-08"]"#)
    #expect(try JSONDecoder().decode([Day].self, from: data) == [day])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Day].self, from: Data(#"["2026-02-30"]"#.utf8))
    }
  }

  @Test func arithmeticCrossesMonthsYearsAndLeapDays() throws {
    let leap = try #require(Day("2024-02-28"))
    #expect(leap.adding(days: 1).description == "2024-02-29")
    #expect(leap.adding(days: 2).description == "2024-03-01")
    #expect(try #require(Day("2023-02-28")).adding(days: 1).description == "2023-03-01")
    #expect(try #require(Day("2025-12-31")).adding(days: 1).description == "2026-01-01")
    #expect(try #require(Day("2024-01-01")).days(to: try #require(Day("2025-01-01"))) == 366)
  }

  @Test func roundTripsEveryOrdinalAgainstFoundation() async {
    // Years 1600–2400: both sides of every century rule.
    await propertyCheck(count: 2000, input: Gen.int(in: -135_000...157_000)) { ordinal in
      let day = Day(ordinal: ordinal)
      let (y, m, d) = day.components
      #expect(Day(year: y, month: m, day: d) == day)
      #expect(Day(day.description) == day)
      #expect(day.weekday == ReferenceCalendar.weekday(of: day))
      #expect(day.adding(days: 1) == ReferenceCalendar.adding(1, to: day))
    }
  }
}
