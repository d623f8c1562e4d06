import Foundation
import TallyCore
import TallyImport
import Testing

/// Table Habit's JSON backup, from a hand-made sample written after its source's export model
/// (FriesI23/mhabit `lib/models/habit_export.dart`; docs/import-export.md).
@Suite struct TableHabitTests {
  /// Days since 1970: 19792 is 2024-03-10, 19793 the day after.
  static let sample = """
    [
      {"name": "Push-ups", "desc": "before breakfast", "type": 1, "status": 1, "daily_goal": 20,
       "daily_goal_unit": "reps", "freq_type": 1, "freq_custom": "[3]", "start_date": 19700,
       "custom_color": 4281558681, "reminder": "{\\"type\\":1,\\"time\\":\\"08:00\\"}", "sort_position": 1,
       "records": [
         {"record_date": 19792, "record_type": 1, "record_value": 25, "reason": "easy"},
         {"record_date": 19793, "record_type": 2, "record_value": 0},
         {"record_date": 19794, "record_type": 0}
       ]},
      {"name": "Stretch", "type": 1, "status": 3, "daily_goal": 1, "freq_type": 3, "freq_custom": "[1, 1]",
       "records": [{"record_date": 19792, "record_type": 1, "record_value": 1}]},
      {"name": "Sugar", "type": 2, "status": 1, "daily_goal": 2, "daily_goal_unit": "", "freq_type": 3,
       "freq_custom": "[2, 10]", "records": []},
      {"name": "Gone", "status": 2, "freq_type": 3, "freq_custom": "[1, 1]", "records": []}
    ]
    """

  @Test func habitsSchedulesGoalsAndRecordsAreCarried() async throws {
    let history = try readDetected(Self.sample)
    #expect(history.format == .tableHabit)
    #expect(history.habits.map(\.name) == ["Push-ups", "Stretch", "Sugar"])
    let pushUps = history.habits[0]
    // Tally counts a measurable habit's target once a period, so 20 reps on 3 days a week is 20 a week.
    #expect(pushUps.frequency == .weekly(targetPerWeek: 1))
    #expect(pushUps.measure == (try Measure(unit: "reps", target: Amount(20))))
    #expect(pushUps.createdDay == day("2023-12-09"))
    #expect(pushUps.color == HexColor(red: 0x33, green: 0x66, blue: 0x99))
    #expect(pushUps.entries == [
      HabitEntry(day: day("2024-03-10"), status: .done, note: "easy", amount: Amount(25)),
      HabitEntry(day: day("2024-03-11"), status: .skipped),
    ])
    #expect(history.habits[1].archived && history.habits[1].measure == nil && history.habits[1].frequency == .daily)
    #expect(history.habits[1].entries == [HabitEntry(day: day("2024-03-10"), status: .done)])
    // A negative habit's goal is a limit.
    #expect(history.habits[2].measure == (try Measure(unit: "times", target: Amount(2), direction: .atMost)))
    #expect(history.habits[2].frequency == .timesInDays(times: 1, days: 10))
    #expect(history.warnings.map(\.description) == [
      "'Push-ups': its target is counted once per 7 days, not 3 times (1 a week)",
      "'Push-ups': its reminder is not carried (its format is Table Habit's own)",
      "'Push-ups': 1 record of record_type 0 (unknown) left out",
      "'Sugar': its target is counted once per 10 days, not 2 times (1 in 10 days)",
      "1 deleted habit (status 2) left out",
    ])
    let target = try await ImportTarget()
    #expect(try await target.runTwice(history).entries == 3)
  }

  @Test func aBadRecordOrScheduleIsRefusedByItsPlace() throws {
    #expect(throws: ImportError("record 1 of habit 1 of the Table Habit backup", "it has no record_date")) {
      try readDetected(#"[{"name": "Run", "freq_type": 3, "freq_custom": "[1, 1]", "records": [{"record_type": 1}]}]"#)
    }
    #expect(
      throws: ImportError(
        "habit 1 of the Table Habit backup", "its freq_type 1 with freq_custom '[]' is not a schedule Table Habit writes")
    ) {
      try readDetected(#"[{"name": "Run", "freq_type": 1, "freq_custom": "[]", "records": []}]"#)
    }
  }
}
