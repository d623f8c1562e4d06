import Foundation
import TallyCore
import TallyImport
import Testing

/// HabitKit's JSON export, from a hand-made sample: no real file is public, so the sample
/// follows the public description the reader is built from (docs/import-export.md).
@Suite struct HabitKitTests {
  /// Two habits listed out of order; Water asks 8 a day; a completion just after local
  /// midnight east of UTC and one in New York, both on 10 March locally.
  static let sample = """
    {
      "habits": [
        {"id": "h-water", "name": "Water", "description": "glasses", "color": "deepOrange", "iconName": "cup",
         "archived": false, "orderIndex": 1},
        {"id": "h-read", "name": "Read", "description": "", "color": "#336699", "iconName": "book",
         "archived": true, "orderIndex": 0}
      ],
      "completions": [
        {"habitId": "h-read", "date": "2024-03-09T23:00:00.000Z", "timezoneOffsetInMinutes": 60, "amountOfCompletions": 1},
        {"habitId": "h-read", "date": "2024-03-11T05:00:00.000Z", "timezoneOffsetInMinutes": -300, "amountOfCompletions": 1},
        {"habitId": "h-read", "date": "2024-03-12T00:00:00.000Z", "timezoneOffsetInMinutes": 0, "amountOfCompletions": 0},
        {"habitId": "h-water", "date": "2024-03-10T05:00:00.000Z", "timezoneOffsetInMinutes": -300, "amountOfCompletions": 5},
        {"habitId": "h-water", "date": "2030-01-01T00:00:00.000Z", "timezoneOffsetInMinutes": 0, "amountOfCompletions": 8}
      ],
      "intervals": [
        {"habitId": "h-water", "requiredNumberOfCompletionsPerDay": 8},
        {"habitId": "h-read", "requiredNumberOfCompletionsPerDay": 1}
      ],
      "categories": [{"id": "c1", "name": "Health"}]
    }
    """

  @Test func completionsLandOnTheirLocalDayAndCountsBecomeAmounts() async throws {
    let history = try readDetected(Self.sample)
    #expect(history.format == .habitKit)
    #expect(history.habits.map(\.name) == ["Read", "Water"])
    let read = history.habits[0]
    #expect(read.archived && read.measure == nil && read.description == nil)
    #expect(read.color == HexColor(red: 0x33, green: 0x66, blue: 0x99))
    // 23:00 UTC + 60 minutes and 05:00 UTC − 300 minutes: local midnights; 0 completions is no entry.
    #expect(read.entries == [
      HabitEntry(day: day("2024-03-10"), status: .done), HabitEntry(day: day("2024-03-11"), status: .done),
    ])
    let water = history.habits[1]
    #expect(water.measure == (try Measure(unit: "completions", target: Amount(8))))
    #expect(water.color == HexColor(red: 0xFF, green: 0x57, blue: 0x22))
    #expect(water.description == "glasses")
    #expect(water.entries == [HabitEntry(day: day("2024-03-10"), status: .done, amount: Amount(5))])
    #expect(history.warnings.map(\.description) == [
      "1 category not carried (Tally has no categories)",
      "'Water': 1 day after today (2026-12-01) left out",
    ])
    let target = try await ImportTarget()
    let summary = try await target.runTwice(history)
    #expect(summary.entries == 3)
  }

  @Test func fieldsTheDescriptionDoesNotNameAreReportedNotGuessed() throws {
    let history = try readDetected("""
      {"habits": [{"id": 7, "name": "Run", "goal": 3}], "completions": [],
       "intervals": [{"habitId": 7, "requiredNumberOfCompletionsPerDay": 1, "weekdays": [1, 3]},
                     {"habitId": 7, "requiredNumberOfCompletionsPerDay": 2}]}
      """)
    #expect(history.habits.map(\.frequency) == [.daily])
    #expect(history.habits.first?.measure == (try Measure(unit: "completions", target: Amount(2))))
    #expect(history.warnings.map(\.description) == [
      "the habits' fields goal are not read",
      "'Run': it has 2 intervals; the last in the file, 2 a day, is kept",
      "the intervals' fields weekdays are not read: HabitKit's public description does not say what they mean, so every habit is daily",
    ])
  }

  @Test func aBrokenCompletionIsRefusedByItsPlace() throws {
    func completion(_ fields: String) throws -> ImportedHistory {
      try HabitKitReader.read(
        Data("""
          {"habits": [{"id": "a", "name": "Run"}], "intervals": [], "completions": [
            {"habitId": "a", "date": "2024-01-01T00:00:00Z", "timezoneOffsetInMinutes": 0}, {\(fields)}]}
          """.utf8), today: SharedFixtures.today)
    }
    #expect(throws: ImportError("completion 2 of the HabitKit export", "its habitId 'b' names no habit in the file")) {
      try completion(#""habitId": "b", "date": "2024-01-01T00:00:00Z""#)
    }
    #expect(throws: ImportError("completion 2 of the HabitKit export", "its date '2024-01-01' is not an ISO 8601 time")) {
      try completion(#""habitId": "a", "date": "2024-01-01""#)
    }
    #expect(
      throws: ImportError(
        "completion 2 of the HabitKit export", "its timezoneOffsetInMinutes 1.5 is not a whole number of minutes from -1440 to 1440")
    ) {
      try completion(#""habitId": "a", "date": "2024-01-02T00:00:00Z", "timezoneOffsetInMinutes": 1.5"#)
    }
    #expect(try completion(#""habitId": "a", "date": "2024-01-02T00:00:00Z", "amountOfCompletions": 1"#).habits[0].entries.count == 2)
  }
}
