import Foundation
import TallyCore
import TallyImport
import Testing

/// Habitica's userdata.json, from a hand-made sample following its data export controller and
/// task model (HabitRPG/habitica; docs/import-export.md).
@Suite struct HabiticaTests {
  /// The user is 5 hours behind UTC (timezoneOffset 300) and starts the day at 4:00.
  /// 1710068400000 is 2024-03-10 11:00 UTC; 1710054000000 is 2024-03-10 07:00 UTC, 02:00
  /// locally, before the day starts at 4:00, so Habitica's 9 March.
  static let sample = """
    {
      "_id": "u1", "preferences": {"timezoneOffset": 300, "dayStart": 4},
      "tasks": {
        "dailys": [
          {"id": "d1", "text": "Yoga", "notes": "mat", "frequency": "weekly", "everyX": 1,
           "repeat": {"m": true, "t": false, "w": true, "th": false, "f": true, "s": false, "su": false},
           "history": [
             {"date": 1710068400000, "value": 1.5, "isDue": true, "completed": true},
             {"date": 1710126000000, "value": 0.2, "isDue": true, "completed": false},
             {"date": 1710054000000, "value": 0.9}
           ]},
          {"id": "d2", "text": "Water plants", "frequency": "daily", "everyX": 3, "history": []}
        ],
        "habits": [
          {"id": "h1", "text": "Stairs", "up": true, "down": true, "history": [
            {"date": 1710068400000, "value": 2, "scoredUp": 3, "scoredDown": 0},
            {"date": 1710054000000, "value": 1, "scoredUp": 1, "scoredDown": 1}
          ]}
        ],
        "todos": [{"id": "t1", "text": "Taxes", "completed": true}, {"id": "t2", "text": "Call mum", "completed": false}],
        "rewards": [{"id": "r1", "text": "Cake", "value": 10}]
      }
    }
    """

  @Test func dailiesKeepTheirWeekdaysAndTodosAndRewardsAreReported() async throws {
    let history = try readDetected(Self.sample)
    #expect(history.format == .habitica)
    #expect(history.habits.map(\.name) == ["Yoga", "Water plants", "Stairs"])
    #expect(history.habits[0].frequency == .weekdays(try WeekdaySet([.monday, .wednesday, .friday])))
    #expect(history.habits[0].description == "mat")
    #expect(history.habits[0].entries == [HabitEntry(day: day("2024-03-10"), status: .done)])
    #expect(history.habits[1].frequency == .timesInDays(times: 1, days: 3))
    #expect(history.habits[2].measure == (try Measure(unit: "times", target: Amount(1))))
    #expect(history.habits[2].entries == [
      HabitEntry(day: day("2024-03-09"), status: .done, amount: Amount(1)),
      HabitEntry(day: day("2024-03-10"), status: .done, amount: Amount(3)),
    ])
    #expect(history.warnings.map(\.description) == [
      "1 history entry without completed (dailies) or scoredUp (habits) left out: their value is Habitica's task score, not a day done",
      "1 negative score (scoredDown) not carried: Tally's habits count days done",
      "2 to-dos (1 completed) not carried: Tally keeps habits, not to-dos",
      "1 reward not carried: Tally keeps habits, not rewards",
    ])
    let target = try await ImportTarget()
    #expect(try await target.runTwice(history).entries == 3)
  }

  @Test func aDailyWithoutTextIsRefusedByItsPlace() throws {
    #expect(throws: ImportError("daily 1 of the Habitica export", "it has no text")) {
      try HabiticaReader.read(Data(#"{"tasks": {"dailys": [{"text": " "}]}}"#.utf8), today: SharedFixtures.today)
    }
  }
}
