import Foundation
import GRDB
import TallyCore
import TallyImport
import TallyStore
import Testing

@Suite struct LoopImportTests {
  let today = day("2024-03-10")

  func entry(_ text: String, _ status: EntryStatus = .done, _ note: String? = nil, amount: Int64? = nil) -> HabitEntry {
    HabitEntry(day: day(text), status: status, note: note, amount: amount.map(Amount.init(thousandths:)))
  }

  /// small-contents.json, in Tally's terms.
  @Test func theSmallBackupIsReadExactly() throws {
    let history = try LoopBackupReader.read(path: smallBackup, today: today)
    #expect(history.format == .loopSQLite)
    #expect(history.habits.map(\.name) == ["Meditate", "Read élèves", "Gym, weights"])
    let (meditate, read, gym) = (history.habits[0], history.habits[1], history.habits[2])

    #expect(meditate.frequency == .daily)
    #expect(meditate.color.hex == "#00897B")
    #expect(meditate.reminder == .single(try WallTime(hour: 7, minute: 30)))
    #expect(!meditate.archived)
    #expect(meditate.createdDay == day("2024-03-01"))
    // NO and UNKNOWN are no entry, but their notes are kept on noted days (not done).
    #expect(
      meditate.entries == [
        entry("2024-03-01"), entry("2024-03-02"), entry("2024-03-03", .noted, "Sick, stayed in bed"),
        entry("2024-03-05", .skipped), entry("2024-03-06"), entry("2024-03-07", .noted, #"Said "no""#),
        entry("2024-03-09"), entry("2024-03-10"),
      ])

    #expect(gym.frequency == .weekly(targetPerWeek: 3))
    #expect(gym.color.hex == "#D32F2F")
    #expect(gym.reminder == .none)
    #expect(gym.entries == [entry("2024-03-01"), entry("2024-03-04"), entry("2024-03-06"), entry("2024-03-08")])
    #expect(gym.description == "Push/pull/legs")

    // Numeric, at least 12.5 pages a day: every recorded amount kept exactly, 0 included.
    #expect(read.archived)
    #expect(read.frequency == .daily)
    #expect(read.measure == (try Measure(unit: "pages", target: Amount(thousandths: 12_500), direction: .atLeast)))
    #expect(read.color.hex == "#1976D2")
    #expect(read.reminder == .single(try WallTime(hour: 21, minute: 0)))
    #expect(
      read.entries == [
        entry("2024-03-02", amount: 15_000), entry("2024-03-03", amount: 2_500), entry("2024-03-04", amount: 0),
        entry("2024-03-08", .done, "Long\nweekend", amount: 30_000),
      ])
    #expect(read.createdDay == day("2024-03-02"))

    #expect(
      history.warnings.map(\.description) == [
        "'Read élèves': its reminder at 21:00 was on some weekdays only; Tally reminds every day",
      ])
  }

  /// The CSV export holds the same history (YES_AUTO days are Loop's filling, not done), but
  /// no reminders.
  @Test func theSmallZipGivesTheSameHabitsAndEntries() throws {
    let backup = try LoopBackupReader.read(path: smallBackup, today: today)
    let zipped = try LoopCSVReader.read(path: smallZip, today: today)
    #expect(zipped.format == .loopCSV)
    let byName = Dictionary(uniqueKeysWithValues: zipped.habits.map { ($0.name, $0) })
    #expect(byName.count == 3)
    for habit in backup.habits {
      let other = try #require(byName[habit.name])
      #expect(other.entries == habit.entries)
      #expect(other.color == habit.color)
      #expect(other.frequency == habit.frequency)
      #expect(other.measure == habit.measure)
      #expect(other.description == habit.description)
      #expect(other.archived == habit.archived)
      #expect(other.createdDay == habit.createdDay)
      #expect(other.reminder == .none)
    }
  }

  @Test(arguments: [
    (1, 1, Frequency.daily, false), (7, 7, .daily, false), (3, 7, .weekly(targetPerWeek: 3), false),
    (6, 7, .weekly(targetPerWeek: 6), false), (5, 30, .monthly(timesPerMonth: 5), false),
    (9, 31, .monthly(timesPerMonth: 9), false), (1, 2, .timesInDays(times: 1, days: 2), false),
    (3, 10, .timesInDays(times: 3, days: 10), false), (1, 30, .monthly(timesPerMonth: 1), false),
    (13, 14, .timesInDays(times: 13, days: 14), false), (2, 3, .timesInDays(times: 2, days: 3), false),
    (29, 30, .timesInDays(times: 29, days: 30), false), (2, 730, .timesInDays(times: 1, days: 365), true),
  ])
  func frequenciesMapToTheNearestTallyForm(_ num: Int, _ den: Int, _ expected: Frequency, _ warns: Bool) {
    let (frequency, change) = LoopMapping.frequency(numerator: num, denominator: den)
    #expect(frequency == expected)
    #expect((change != nil) == warns)
  }

  @Test func loopsGeneralFrequencyIsKept() throws {
    let path = try loopBackup { db in
      try addLoopHabit(db, id: 1, name: "Café", num: 3, den: 10)
    }
    let history = try LoopBackupReader.read(path: path, today: today)
    #expect(history.habits[0].frequency == .timesInDays(times: 3, days: 10))
    #expect(history.warnings.isEmpty)
  }

  @Test func thePaletteMatchesTheCSVExportsColours() {
    #expect(LoopMapping.palette.count == 20)
    #expect(LoopMapping.color(index: 0)?.hex == "#D32F2F")
    #expect(LoopMapping.color(index: 19)?.hex == "#AAAAAA")
    #expect(LoopMapping.color(index: 20) == nil)
  }

  @Test func daysAfterTodayAreLeftOutWithAWarning() throws {
    let path = try loopBackup { db in
      try addLoopHabit(db, id: 1, name: "Run")
      try addRepetition(db, habit: 1, day: "2024-03-10", value: 2)
      try addRepetition(db, habit: 1, day: "2024-03-11", value: 2)
    }
    let history = try LoopBackupReader.read(path: path, today: today)
    #expect(history.habits[0].entries == [entry("2024-03-10")])
    #expect(history.warnings.map(\.description) == ["'Run': 1 day after today (2024-03-10) left out"])
  }

  /// Loop's timestamps are UTC midnights: the day is read straight off them, whatever the
  /// zone, leap days and days before 1970 included.
  @Test func timestampsAreUTCDays() throws {
    let path = try loopBackup { db in
      try addLoopHabit(db, id: 1, name: "Run")
      for (timestamp, value) in [(1_709_164_800_000, 2), (0, 3), (-86_400_000, 2), (951_782_400_000, 2)] as [(Int64, Int)] {
        try db.execute(
          sql: "INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, ?, ?)", arguments: [timestamp, value])
      }
    }
    let history = try LoopBackupReader.read(path: path, today: today)
    #expect(
      history.habits[0].entries == [
        entry("1969-12-31"), entry("1970-01-01", .skipped), entry("2000-02-29"), entry("2024-02-29"),
      ])
    #expect(history.habits[0].createdDay == day("1969-12-31"))
  }

  /// A numeric habit's 3 is Loop's skip, not 0.003 of its unit.
  @Test func aNumericHabitsSkipIsASkip() throws {
    let path = try loopBackup { db in
      try addLoopHabit(db, id: 1, name: "Swim", type: 1)
      try db.execute(sql: "UPDATE Habits SET target_value = 60, unit = 'laps'")
      try addRepetition(db, habit: 1, day: "2024-03-01", value: 3)
      try addRepetition(db, habit: 1, day: "2024-03-02", value: 60_000)
      try addRepetition(db, habit: 1, day: "2024-03-03", value: 59_000)
    }
    let history = try LoopBackupReader.read(path: path, today: today)
    #expect(
      history.habits[0].entries == [
        entry("2024-03-01", .skipped), entry("2024-03-02", amount: 60_000), entry("2024-03-03", amount: 59_000),
      ])
  }

  // MARK: - Broken backups: refused with the row and the reason

  @Test func brokenBackupsNameTheRowAndReason() throws {
    let cases: [((Database) throws -> Void, String)] = [
      ({ db in
        try addLoopHabit(db, id: 1, name: "Run")
        try db.execute(sql: "INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, 1709251200001, 2)")
      }, "The repetition with id 1 in the table Repetitions: its timestamp 1709251200001 is not a day (Loop writes milliseconds at 00:00 UTC)"),
      ({ db in
        try addLoopHabit(db, id: 1, name: "Run")
        try addRepetition(db, habit: 1, day: "2024-03-01", value: 2)
        try addRepetition(db, habit: 1, day: "2024-03-02", value: 7)
      }, "The repetition with id 2 in the table Repetitions: its value 7 is not one Loop writes (2 done, 1 automatic, 0 not done, 3 skipped, -1 unknown)"),
      ({ db in
        try addLoopHabit(db, id: 1, name: "Run")
        try addRepetition(db, habit: 2, day: "2024-03-01", value: 2)
      }, "The repetition with id 1 in the table Repetitions: its habit 2 is not in the table Habits"),
      ({ db in
        try addLoopHabit(db, id: 1, name: "Run")
        try db.execute(sql: "INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, 'yesterday', 2)")
      }, "The repetition with id 1 in the table Repetitions: its timestamp 'yesterday' is not a day (Loop writes milliseconds at 00:00 UTC)"),
      ({ db in
        try addLoopHabit(db, id: 1, name: "Run", num: 0, den: 7)
      }, "The habit with id 1 in the table Habits: its frequency 0 in 7 days is not one Loop writes"),
      ({ db in
        try addLoopHabit(db, id: 1, name: "Run", type: 4)
      }, "The habit with id 1 in the table Habits: its type is 4; Loop writes 0 (yes or no) or 1 (numeric)"),
      ({ db in
        try db.execute(sql: "ALTER TABLE Habits DROP COLUMN freq_num")
      }, "The table Habits: the column freq_num is missing, so it is not a backup of Loop Habit Tracker"),
      ({ db in
        try db.execute(sql: "DROP TABLE Repetitions")
      }, "The file has no table Repetitions; it is not a backup of Loop Habit Tracker"),
    ]
    for (fill, message) in cases {
      let path = try loopBackup(fill)
      #expect(throws: ImportError.self) { try LoopBackupReader.read(path: path, today: today) }
      do {
        _ = try LoopBackupReader.read(path: path, today: today)
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test func aTruncatedOrForeignFileIsRefused() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: smallBackup))
    let truncated = temporaryFile("cut.db")
    try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
    let text = temporaryFile("text.db")
    try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
    for path in [truncated, text] {
      #expect(throws: ImportError.self) { try LoopBackupReader.read(path: path, today: today) }
    }
    // Reading never changes the file.
    #expect(try Data(contentsOf: URL(fileURLWithPath: smallBackup)) == data)
  }

  // MARK: - Broken CSV zips

  @Test func brokenZipsNameTheLineAndReason() throws {
    let good = loopHabitsHeader + "001,Run,YES_NO,,,1,1,#00897B,,,,false\n"
    let cases: [([(String, String)], String)] = [
      ([("Habits.csv", "Position,Title\n001,Run\n")],
        "Line 1 of Habits.csv: the header lacks the columns Name, FrequencyNumerator, FrequencyDenominator, Color; it is 'Position,Title'"),
      ([("Habits.csv", good), ("001 Run/Checkmarks.csv", "Date,Value,Notes\n2024-03-01,YES_MANUAL,\n2024-02-30,NO,\n")],
        "Line 3 of 001 Run/Checkmarks.csv: the Date '2024-02-30' is not a date written YYYY-MM-DD"),
      ([("Habits.csv", good), ("001 Run/Checkmarks.csv", "Date,Value,Notes\n2024-03-01,MAYBE,\n")],
        "Line 2 of 001 Run/Checkmarks.csv: the Value 'MAYBE' is not one Loop writes (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN)"),
      ([("Habits.csv", good), ("001 Run/Checkmarks.csv", "Date,Value,Notes\n2024-03-01,YES_MANUAL,\"open\n")],
        "Line 2 of 001 Run/Checkmarks.csv: the file ends inside a quoted field (is it cut short?)"),
      ([("Habits.csv", good)], "The zip has no Checkmarks.csv in a folder starting 001 for 'Run' (is the zip complete?)"),
      ([("Habits.csv", loopHabitsHeader + "001,Run,YES_NO,,,1,1,blue,,,,false\n")],
        "Line 2 of Habits.csv: the Color 'blue' is not a hex colour"),
      ([("Scores.csv", "Date\n")], "The zip has no file Habits.csv"),
    ]
    for (files, message) in cases {
      let path = try zip(files)
      do {
        _ = try LoopCSVReader.read(path: path, today: today)
        Issue.record("no error for \(message)")
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test func aTruncatedZipIsRefused() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: smallZip))
    let truncated = temporaryFile("cut.zip")
    try data.prefix(data.count - 40).write(to: URL(fileURLWithPath: truncated))
    #expect(throws: ImportError(nil, "the file is not a zip archive (or it is cut short)")) {
      try LoopCSVReader.read(path: truncated, today: today)
    }
  }

  @Test func formatsAreToldFromTheirContents() throws {
    #expect(try Importer.detect(path: smallBackup, data: try Data(contentsOf: URL(fileURLWithPath: smallBackup))) == .loopSQLite)
    #expect(try Importer.detect(path: smallZip, data: try Data(contentsOf: URL(fileURLWithPath: smallZip))) == .loopCSV)
    #expect(try Importer.detect(path: "", data: Data(#"{"habits": []}"#.utf8)) == .beaver)
    #expect(try Importer.detect(path: "", data: Data("{".utf8)) == .json)
    #expect(try Importer.detect(path: "", data: Data(#" {"format": "tally-export"}"#.utf8)) == .json)
    #expect(try Importer.detect(path: "", data: Data("habitName,day,status\n".utf8)) == .csv)
    #expect(throws: ImportError("line 1", "the header 'hello' is not one of a CSV export Tally reads")) {
      try Importer.detect(path: "x.csv", data: Data("hello".utf8))
    }
  }
}
