import Foundation
import TallyCore
import TallyImport
import Testing

@Suite struct BeaverAndCSVTests {
  let today = day("2024-03-10")

  @Test func aBeaverExportIsRead() throws {
    let json = """
      {"habits": [
        {"id": "b", "name": "Stretch", "status": "archive", "weekly_goal": 3,
         "records": [{"day": "2024-03-02", "done": true}, {"day": "2024-03-01", "done": true, "text": " felt good "},
                     {"day": "2024-03-03", "done": false, "text": "skipped it"}, {"day": "2024-03-04", "done": false}]},
        {"id": "a", "name": "Water", "records": [{"day": "2024-03-11", "done": true}]},
        {"id": "c", "name": "Gone", "status": "soft_delete", "records": []}
      ], "order": ["a", "b"]}
      """
    let history = try BeaverReader.read(Data(json.utf8), today: today)
    #expect(history.habits.map(\.name) == ["Water", "Stretch"])
    let stretch = history.habits[1]
    #expect(stretch.archived)
    #expect(stretch.frequency == .weekly(targetPerWeek: 3))
    #expect(stretch.createdDay == day("2024-03-01"))
    #expect(
      stretch.entries == [
        HabitEntry(day: day("2024-03-01"), status: .done, note: "felt good"),
        HabitEntry(day: day("2024-03-02"), status: .done),
        HabitEntry(day: day("2024-03-03"), status: .noted, note: "skipped it"),
      ])
    #expect(history.habits[0].entries.isEmpty)
    #expect(
      history.warnings.map(\.description) == [
        "'Water': 1 day after today (2024-03-10) left out",
        "'Gone': it was deleted in Beaver, so it is left out",
      ])
  }

  /// A record's field Tally does not read, such as an amount a newer Beaver might write, is
  /// named in a warning with how many records hold it; the days themselves are still read.
  @Test func aRecordFieldTallyDoesNotReadIsNamed() throws {
    let json = """
      {"habits": [{"id": "r", "name": "Run", "records": [
        {"day": "2024-03-01", "done": true, "count": 5}, {"day": "2024-03-02", "done": true, "count": 3, "unit": "km"},
        {"day": "2024-03-03", "done": true}]}]}
      """
    let history = try BeaverReader.read(Data(json.utf8), today: today)
    #expect(history.habits[0].entries.map(\.day) == [day("2024-03-01"), day("2024-03-02"), day("2024-03-03")])
    #expect(
      history.warnings.map(\.description) == [
        "'Run': the field 'count' of 2 records is not one Tally reads, so its values are not imported",
        "'Run': the field 'unit' of 1 record is not one Tally reads, so its values are not imported",
      ])
  }

  /// Newer Beaver files say how often in `period` (its `HabitFrequency`: `period_type` D, W,
  /// M or Y, `period_count`, `target_count`, as `beaverhabits/storage/storage.py` writes it).
  @Test func aBeaverPeriodBecomesTheSchedule() throws {
    func period(_ type: String, _ count: Int, _ target: Int) -> String {
      #"{"period_type": "\#(type)", "period_count": \#(count), "target_count": \#(target)}"#
    }
    let json = """
      {"habits": [
        {"name": "Gym", "period": \(period("W", 1, 3)), "records": []},
        {"name": "Call mum", "period": \(period("M", 1, 2)), "records": []},
        {"name": "Floss", "period": \(period("D", 3, 2)), "records": []},
        {"name": "Hike", "period": \(period("W", 2, 1)), "records": []},
        {"name": "Water", "period": \(period("D", 1, 1)), "weekly_goal": 3, "records": []},
        {"name": "Stretch", "period": null, "weekly_goal": 4, "records": []}
      ]}
      """
    let history = try BeaverReader.read(Data(json.utf8), today: today)
    #expect(
      history.habits.map(\.frequency) == [
        .weekly(targetPerWeek: 3), .monthly(timesPerMonth: 2), .timesInDays(times: 2, days: 3),
        .timesInDays(times: 1, days: 14), .daily, .weekly(targetPerWeek: 4),
      ])
    #expect(
      history.warnings.map(\.description) == [
        "'Hike': its period 1/2W became 1 in 14 days, counted in blocks of days rather than calendar weeks"
      ])
    let odd = #"{"habits": [{"name": "A", "period": {"period_type": "Q", "period_count": 1, "target_count": 1}}]}"#
    #expect(throws: ImportError.self) { try BeaverReader.read(Data(odd.utf8), today: today) }
  }

  @Test(arguments: [
    ("{", "The file is not a Beaver Habit Tracker export: it is not JSON"),
    (#"{"habits": [{"records": []}]}"#, "The file is not a Beaver Habit Tracker export: habits[0] has no 'name'"),
    (#"{"habits": [{"name": "A", "records": [{"day": "2024-13-01", "done": true}]}]}"#,
      "Record 1 of the habit 'A' (habits[0].records[0]): the day '2024-13-01' is not written YYYY-MM-DD"),
    (#"{"habits": [{"name": "A", "records": [{"day": "2024-03-01"}, {"day": "2024-03-01"}]}]}"#,
      "Record 2 of the habit 'A' (habits[0].records[1]): the day 2024-03-01 is listed twice"),
    (#"{"habits": [{"name": "A", "status": "paused", "records": []}]}"#,
      "The habit 'A' (habits[0]): the status 'paused' is not one Beaver writes (normal, archive, soft_delete)"),
  ])
  func brokenBeaverFilesAreRefused(_ json: String, _ message: String) {
    do {
      _ = try BeaverReader.read(Data(json.utf8), today: today)
      Issue.record("no error")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func csvRecordsFollowRFC4180() throws {
    let text = "a,\"b,\"\"c\"\"\",d\r\n\"line\nbreak\",,\r\nlast,,"
    let records = try CSVReader.records(Data(text.utf8), file: "x.csv")
    #expect(records.map(\.fields) == [["a", "b,\"c\"", "d"], ["line\nbreak", "", ""], ["last", "", ""]])
    #expect(records.map(\.line) == [1, 2, 4])
    #expect(throws: ImportError("line 1 of x.csv", "text after the closing quote of a field")) {
      try CSVReader.records(Data("\"a\"b\n".utf8), file: "x.csv")
    }
    #expect(throws: ImportError("x.csv", "the file is not UTF-8 text")) {
      try CSVReader.records(Data([0x61, 0xFF, 0x0A]), file: "x.csv")
    }
  }

  /// Issue 17: a row with more or fewer fields than the header is refused by every reader;
  /// a blank line is still no row.
  @Test func raggedRowsAreRefused() throws {
    #expect(throws: ImportError("line 3 of x.csv", "it has 7 fields where the header has 5")) {
      try CSVReader.records(Data("a,b,c,d,e\n1,2,3,4,5\n1,2,3,4,5,6,7\n".utf8), file: "x.csv")
    }
    #expect(throws: ImportError("line 2 of x.csv", "it has 2 fields where the header has 3")) {
      try CSVReader.records(Data("a,b,c\n1,2\n".utf8), file: "x.csv")
    }
    #expect(try CSVReader.records(Data("a,b\n\n1,2\n".utf8), file: "x.csv").count == 3)
    let entries = "habitId,habitName,day,status,note\n,Read,2026-03-01,done,,extra,more\n"
    #expect(throws: ImportError("line 2 of the CSV file", "it has 7 fields where the header has 5")) {
      try EntriesCSV.read(Data(entries.utf8), today: today)
    }
  }

  @Test func tallyCSVRoundTripsThroughTheReader() throws {
    let habit = try Habit(id: UUID(), name: "Read, slowly", createdDay: day("2024-01-01"))
    let entries = [
      HabitEntry(day: day("2024-02-29"), status: .done, note: "ill, \"really\"\nin bed"),
      HabitEntry(day: day("2024-03-01"), status: .skipped),
      HabitEntry(day: day("2024-03-02"), status: .noted, note: "no time"),
    ]
    let text = EntriesCSV.text([(habit, entries)])
    let history = try EntriesCSV.read(Data(text.utf8), today: today)
    #expect(history.habits == [ImportedHabit(name: "Read, slowly", id: habit.id, createdDay: day("2024-02-29"), entries: entries)])
  }

  @Test func aNotedRowWithoutANoteIsRefusedNamingTheLine() {
    let csv = "habitName,day,status,note\nRead,2024-03-01,noted,rain\nRead,2024-03-02,noted, \n"
    #expect(
      throws: ImportError("line 3 of the CSV file", "the note must not be empty on a noted day (the note is all it holds)")
    ) { try EntriesCSV.read(Data(csv.utf8), today: today) }
  }
}
