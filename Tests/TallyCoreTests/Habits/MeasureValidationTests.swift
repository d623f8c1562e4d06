import Foundation
import TallyCore
import Testing

@Suite struct MeasureValidationTests {
  @Test func amountsAreExactThousandths() throws {
    #expect(try Amount(parsing: "5.2").thousandths == 5200)
    #expect(try Amount(parsing: "0,125").thousandths == 125)
    #expect(try Amount(parsing: "7").description == "7")
    #expect(try Amount(number: 5.2).description == "5.2")
    #expect(throws: ValidationError.self) { try Amount(parsing: "-1") }
    #expect(throws: ValidationError.self) { try Amount(parsing: "1.2345") }
    #expect(throws: ValidationError.self) { try Amount(number: 0.0001) }
    #expect(throws: ValidationError.self) { try Amount(number: -2) }
    #expect(throws: ValidationError.self) { try Amount(parsing: "five") }
  }

  @Test func aTargetMustBeMoreThanZero() {
    #expect(throws: ValidationError(field: "target", rule: "must be more than 0, not 0", kind: .notPositive)) {
      try Measure(unit: "km", target: .zero)
    }
  }

  @Test func schedulesNameTheWrongField() throws {
    #expect(throws: ValidationError.self) { try Frequency.timesInDays(times: 0, days: 3).validated() }
    do {
      _ = try Frequency.timesInDays(times: 0, days: 3).validated()
    } catch {
      #expect(error.field == "times")
    }
    #expect(throws: ValidationError.self) { try Frequency.timesInDays(times: 3, days: 3).validated() }
    #expect(throws: ValidationError.self) { try Frequency.monthly(timesPerMonth: 29).validated() }
    #expect(try Frequency(parsing: "3 in 10 days") == .timesInDays(times: 3, days: 10))
    #expect(try Frequency(parsing: "2 times a month") == .monthly(timesPerMonth: 2))
    #expect(try Frequency(parsing: "4 per week") == .weekly(targetPerWeek: 4))
    #expect(try Frequency(parsing: "Daily") == .daily)
    for frequency in [Frequency.daily, .weekly(targetPerWeek: 2), .timesInDays(times: 3, days: 10), .monthly(timesPerMonth: 5)] {
      #expect(try Frequency(parsing: frequency.text) == frequency)
      let json = try JSONEncoder().encode(frequency)
      #expect(try JSONDecoder().decode(Frequency.self, from: json) == frequency)
    }
  }

  @Test func entriesMatchTheHabitsKind() throws {
    let yesNo = try Habit(id: UUID(), name: "Read", createdDay: Day("2026-03-01")!)
    let run = try Habit(
      id: UUID(), name: "Run", createdDay: Day("2026-03-01")!, measure: Measure(unit: "km", target: Amount(5)))
    #expect(throws: ValidationError.self) { try yesNo.checkEntry(status: .done, amount: Amount(1)) }
    #expect(throws: ValidationError.self) { try run.checkEntry(status: .done, amount: nil) }
    #expect(throws: ValidationError.self) { try run.checkEntry(status: .skipped, amount: Amount(1)) }
    try run.checkEntry(status: .done, amount: .zero)
    try run.checkEntry(status: .skipped, amount: nil)
  }

  @Test func aMeasurableHabitCountsOncePerPeriod() throws {
    #expect(throws: ValidationError.self) {
      try Habit(
        id: UUID(), name: "Run", createdDay: Day("2026-03-01")!, frequency: .weekly(targetPerWeek: 3),
        measure: Measure(unit: "km", target: Amount(5)))
    }
  }

  @Test func habitsKeepMeasureAndDescriptionThroughJSON() throws {
    let run = try Habit(
      id: UUID(), name: "Run", createdDay: Day("2026-03-01")!, frequency: .monthly(timesPerMonth: 1),
      measure: Measure(unit: "km", target: Amount(thousandths: 42_195), direction: .atLeast),
      description: "Long runs only")
    let back = try JSONDecoder().decode(Habit.self, from: JSONEncoder().encode(run))
    #expect(back == run)
    let old = ##"{"id":"\##(UUID())","name":"Read","color":"#8B5CF6","createdDay":"2026-03-01","frequency":{"type":"daily"}}"##
    let read = try JSONDecoder().decode(Habit.self, from: Data(old.utf8))
    #expect(read.kind == .yesNo)
    #expect(read.description == nil)
  }
}
