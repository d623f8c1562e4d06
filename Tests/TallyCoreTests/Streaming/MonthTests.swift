import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct MonthTests {
  @Test func parsesAndPrintsYYYYMM() throws {
    let month = try #require(Month("2025-09"))
    #expect(month.year == 2025 && month.month == 9)
    #expect(month.description == "2025-09")
    #expect(Month("0999-12")?.description == "0999-12")
    for bad in ["2025-9", "2025-13", "2025-00", "25-09", "2025/09", "2025-09-01", "", "abcd-ef", "+025-09", "2025--9"] {
      #expect(Month(bad) == nil, "\(bad) should be rejected")
    }
  }

  @Test func parsingErrorNamesTheFieldAndTheForm() {
    #expect(throws: ValidationError(field: "month", rule: "must be a month written YYYY-MM like 2025-09, not '2025-13'")) {
      try Month(parsing: "2025-13")
    }
  }

  @Test func codesAsText() throws {
    let data = try JSONEncoder().encode([Fixtures.month("2024-02")])
    #expect(String(decoding: data, as: UTF8.self) == #"["2024-02"]"#)
    #expect(try JSONDecoder().decode([Month].self, from: data) == [Fixtures.month("2024-02")])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Month].self, from: Data(#"["2024-13"]"#.utf8))
    }
  }

  @Test func stepsAcrossYearsBothWays() {
    let january = Fixtures.month("2025-01")
    #expect(january.previous.description == "2024-12")
    #expect(january.adding(months: -13).description == "2023-12")
    #expect(Fixtures.month("2025-12").next.description == "2026-01")
    #expect(january.adding(months: 25).description == "2027-02")
    #expect(january.adding(months: 0) == january)
    #expect(Fixtures.month("0000-01").previous.year == -1)
    #expect(Fixtures.month("0000-01").previous.month == 12)
  }

  @Test func firstAndLastDaysIncludingLeapFebruary() {
    #expect(Fixtures.month("2024-02").firstDay.description == "2024-02-01")
    #expect(Fixtures.month("2024-02").lastDay.description == "2024-02-29")
    #expect(Fixtures.month("2023-02").lastDay.description == "2023-02-28")
    #expect(Fixtures.month("1900-02").numberOfDays == 28)
    #expect(Fixtures.month("2000-02").numberOfDays == 29)
    #expect(Fixtures.month("2025-04").lastDay.description == "2025-04-30")
    #expect(Fixtures.month("2024-02").contains(Fixtures.day("2024-02-29")))
    #expect(!Fixtures.month("2024-02").contains(Fixtures.day("2024-03-01")))
  }

  @Test func monthContainingADay() {
    #expect(Month(containing: Fixtures.day("2024-02-29")).description == "2024-02")
    #expect(Month(containing: Fixtures.day("2025-12-31")).description == "2025-12")
    #expect(Month(containing: Fixtures.day("2026-01-01")).description == "2026-01")
  }

  @Test func ordersChronologically() {
    #expect(Fixtures.month("2024-12") < Fixtures.month("2025-01"))
    #expect(Fixtures.month("2025-01") < Fixtures.month("2025-02"))
  }

  /// The Today button opens the month of today, and today comes from the user's clock rules.
  @Test(arguments: [
    ("2025-08-31T23:30:00-04:00", "America/New_York", 0, "2025-08"),
    ("2025-09-01T04:30:00Z", "America/New_York", 0, "2025-09"),
    ("2024-03-01T01:30:00+01:00", "Europe/Berlin", 2, "2024-02"),
    ("2025-03-31T23:59:00+05:30", "Asia/Kolkata", 0, "2025-03"),
    ("2025-03-31T18:30:00Z", "Asia/Kolkata", 0, "2025-04"),
    // Lord Howe moves its clocks by 30 minutes; 2025-10-05 02:00 became 02:30.
    ("2025-10-05T02:45:00+11:00", "Australia/Lord_Howe", 0, "2025-10"),
    ("2025-03-31T13:15:00Z", "Australia/Lord_Howe", 0, "2025-04"),
    // Samoa skipped 2011-12-30: one minute after 23:59 on the 29th is 00:00 on the 31st.
    ("2011-12-29T23:59:00-10:00", "Pacific/Apia", 0, "2011-12"),
    ("2011-12-31T00:00:00+14:00", "Pacific/Apia", 0, "2011-12"),
    ("2011-12-31T23:00:00+14:00", "Pacific/Apia", 0, "2011-12"),
    ("2012-01-01T00:00:00+14:00", "Pacific/Apia", 0, "2012-01"),
    // New York falls back on 2025-11-02; with a 2 a.m. day switch, 01:30 is still 1 November.
    ("2025-11-02T01:30:00-05:00", "America/New_York", 2, "2025-11"),
    ("2025-11-01T01:30:00-04:00", "America/New_York", 2, "2025-10"),
  ])
  func todayButtonOpensTheMonthOfTheUsersToday(instant: String, zone: String, switchHour: Int, expected: String) throws {
    let now = try #require(ISO8601DateFormatter().date(from: instant))
    let calendar = try DayCalendar(timeZone: try #require(TimeZone(identifier: zone)), daySwitchHour: switchHour)
    #expect(Month(containing: calendar.day(containing: now)).description == expected)
  }

  @Test func steppingMatchesFoundationCalendar() async {
    await propertyCheck(count: 300, input: zip(Gen.int(in: 1600...2400), Gen.int(in: 1...12), Gen.int(in: -600...600))) { year, month, step in
      let start = Month(year: year, month: month)!
      var utc = Calendar(identifier: .gregorian)
      utc.timeZone = TimeZone(identifier: "UTC")!
      let date = utc.date(byAdding: .month, value: step, to: utc.date(from: DateComponents(year: year, month: month, day: 1, hour: 12))!)!
      let parts = utc.dateComponents([.year, .month], from: date)
      let moved = start.adding(months: step)
      #expect(moved.year == parts.year && moved.month == parts.month)
      #expect(Month(moved.description) == moved)
      #expect(Month(containing: moved.firstDay) == moved && Month(containing: moved.lastDay) == moved)
      #expect(moved.lastDay.adding(days: 1) == moved.next.firstDay)
    }
  }
}
