import Foundation
import Testing
import TallyCore

@Suite struct ScheduleValidationTests {
  @Test func weekdaySetsRefuseWhatIsNotASchedule() {
    #expect(throws: ValidationError(field: "weekdays", rule: "must name at least one day")) {
      try WeekdaySet([])
    }
    #expect(throws: ValidationError(field: "weekdays", rule: "must name 1 to 6 days (all 7 is a daily habit)")) {
      try WeekdaySet(Weekday.allCases)
    }
    #expect(throws: ValidationError(field: "weekdays", rule: "names monday twice")) {
      try WeekdaySet([.monday, .monday])
    }
    #expect(throws: ValidationError.self) { try WeekdaySet(parsing: "mon,wed,funday") }
  }

  @Test func weekdaysReadAndWriteTheirText() throws {
    let set = try WeekdaySet(parsing: "Fri, mon wednesday")
    #expect(set.shortText == "mon,wed,fri")
    #expect(try Frequency(parsing: "mon,wed,fri") == .weekdays(set))
    #expect(try Frequency(parsing: Frequency.weekdays(set).text) == .weekdays(set))
    #expect(set.ordered(from: .saturday) == [.monday, .wednesday, .friday])
    #expect(set.ordered(from: .wednesday) == [.wednesday, .friday, .monday])
  }

  @Test func weekdaysTravelAsJSON() throws {
    let json = Data(#"{"type":"weekdays","weekdays":["monday","friday"]}"#.utf8)
    let decoded = try JSONDecoder().decode(Frequency.self, from: json)
    #expect(decoded == .weekdays(try WeekdaySet([.monday, .friday])))
    let again = try JSONDecoder().decode(Frequency.self, from: JSONEncoder().encode(decoded))
    #expect(again == decoded)
    for bad in [#"[]"#, #"["monday","monday"]"#, #"["mon"]"#] {
      let text = #"{"type":"weekdays","weekdays":\#(bad)}"#
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(Frequency.self, from: Data(text.utf8)) }
    }
  }

  @Test func pausesRefuseBadRanges() {
    #expect(throws: ValidationError.self) {
      try Pause(id: UUID(), habitID: nil, from: day("2026-11-10"), until: day("2026-11-09"))
    }
    #expect(throws: ValidationError.self) {
      try Pause(id: UUID(), habitID: nil, from: day("1969-12-31"), until: nil)
    }
    let json = Data(#"{"id":"\#(UUID())","from":"2026-11-10","until":"2026-11-01"}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Pause.self, from: json) }
  }

  @Test func overlappingPausesOfOneHabitAreFound() throws {
    let habit = UUID()
    let first = try Pause(id: UUID(), habitID: habit, from: day("2026-11-01"), until: day("2026-11-10"))
    let second = try Pause(id: UUID(), habitID: habit, from: day("2026-11-10"), until: nil)
    let otherHabit = try Pause(id: UUID(), habitID: UUID(), from: day("2026-11-05"), until: nil)
    let all = try Pause(id: UUID(), habitID: nil, from: day("2026-11-05"), until: nil)
    #expect(second.overlapping([first, otherHabit, all]) == first)
    #expect(otherHabit.overlapping([first, all]) == nil)
    #expect(first.overlapping([first]) == nil)
  }

  @Test func pausedDaysMergeAndCount() {
    let paused = PausedDays([
      day("2026-11-05")...day("2026-11-06"), day("2026-11-01")...day("2026-11-03"), day("2026-11-04")...day("2026-11-04"),
      day("2026-11-20")...day("2026-11-25"),
    ])
    #expect(paused.ranges == [day("2026-11-01")...day("2026-11-06"), day("2026-11-20")...day("2026-11-25")])
    #expect(paused.count(in: day("2026-11-02")...day("2026-11-22")) == 8)
    #expect(paused.contains(day("2026-11-06")))
    #expect(!paused.contains(day("2026-11-07")))
    #expect(!PausedDays.none.contains(day("2026-11-07")))
  }
}
