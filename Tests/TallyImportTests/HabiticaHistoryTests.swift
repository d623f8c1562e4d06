import Foundation
import TallyCore
import TallyImport
import Testing

/// Habitica's history.csv, from a hand-made sample following its data export controller and its
/// scoring (HabitRPG/habitica; docs/import-export.md): a task's score after each history entry.
@Suite struct HabiticaHistoryTests {
  /// Yoga: checked on the 11th (0 → 1), missed at cron on the 12th (value falls), not due on
  /// the 13th (value kept), checked at 23:30 UTC on the 13th (rises again). Stairs: scored up on
  /// the 10th, down on the 11th. The third task's rows are out of order and its name is quoted.
  static let sample = #"""
    Task Name,Task ID,Task Type,Date,Value
    Yoga,d1,daily,2024-03-11 14:00:00,1
    Yoga,d1,daily,2024-03-12 09:00:00,0.2
    Yoga,d1,daily,2024-03-13 09:00:00,0.2
    Yoga,d1,daily,2024-03-13 23:30:00,1.18
    Stairs,h1,habit,2024-03-10 12:00:00,2.1
    Stairs,h1,habit,2024-03-11 12:00:00,1.4
    "Read, ""slowly""",h2,habit,2024-03-12 08:00:00,-1
    "Read, ""slowly""",h2,habit,2024-03-09 08:00:00,0.5

    """#

  @Test func aRiseOfTheScoreIsADayDoneAndEverythingElseIsSaid() async throws {
    let history = try readDetected(Self.sample)
    #expect(history.format == .habiticaHistory)
    #expect(history.habits.map(\.name) == ["Yoga", "Stairs", #"Read, "slowly""#])
    #expect(history.habits.allSatisfy { $0.frequency == .daily && $0.measure == nil })
    #expect(history.habits[0].entries.map(\.day) == [day("2024-03-11"), day("2024-03-13")])
    #expect(history.habits[1].entries.map(\.day) == [day("2024-03-10")])
    #expect(history.habits[2].entries.map(\.day) == [day("2024-03-09")])
    #expect(history.habits.flatMap(\.entries).allSatisfy { $0.status == .done })
    #expect(history.warnings.map(\.description) == [
      "history.csv holds no schedules: dailies are imported as daily habits (userdata.json carries their weekdays)",
      "2 habit days whose score did not rise not carried: history.csv holds scores, not presses (userdata.json holds them)",
    ])
    let target = try await ImportTarget()
    #expect(try await target.runTwice(history).entries == 4)
    #expect(try await target.entries("Yoga").map(\.day) == [day("2024-03-11"), day("2024-03-13")])
  }

  /// The file's times are UTC; a day is the importing account's.
  @Test func daysAreReadInTheImportingAccountsTimeZone() throws {
    let data = Data(Self.sample.utf8)
    let tokyo = try Importer.read(
      .habiticaHistory, path: "history.csv", data: data, today: SharedFixtures.today,
      timeZone: TimeZone(identifier: "Asia/Tokyo")!)
    #expect(tokyo.habits[0].entries.map(\.day) == [day("2024-03-11"), day("2024-03-14")])
    let newYork = try Importer.read(
      .habiticaHistory, path: "history.csv", data: data, today: SharedFixtures.today,
      timeZone: TimeZone(identifier: "America/New_York")!)
    #expect(newYork.habits[1].entries.map(\.day) == [day("2024-03-10")])
    #expect(newYork.habits[2].entries.map(\.day) == [day("2024-03-09")])
  }

  @Test(arguments: [
    ("Yoga,d1,todo,2024-03-11 14:00:00,1", "the Task Type 'todo' is not one history.csv holds (habit or daily)"),
    ("Yoga,d1,daily,2024-03-11,1", "the Date '2024-03-11' is not YYYY-MM-DD HH:mm:ss"),
    ("Yoga,d1,daily,2024-03-11 25:00:00,1", "the Date '2024-03-11 25:00:00' is not YYYY-MM-DD HH:mm:ss"),
    ("Yoga,d1,daily,1969-12-31 23:00:00,1", "the date 1969-12-31 is before 1970 or after 9999, not one a habit tracker wrote"),
    ("Yoga,d1,daily,2024-03-11 14:00:00,lots", "the Value 'lots' is not a number"),
    (",d1,daily,2024-03-11 14:00:00,1", "the task has no Task ID or Task Name"),
  ])
  func aBadRowIsRefusedByItsLine(row: String, reason: String) {
    let data = Data("Task Name,Task ID,Task Type,Date,Value\nYoga,d1,daily,2024-03-10 14:00:00,1\n\(row)\n".utf8)
    #expect(throws: ImportError("line 3 of the Habitica history.csv", reason)) {
      try HabiticaHistoryReader.read(data, today: SharedFixtures.today, timeZone: .gmt)
    }
  }

  @Test func aFileWithoutTheColumnsIsNotTakenForIt() {
    let data = Data("Task Name,Task ID,Date,Value\nYoga,d1,2024-03-11 14:00:00,1\n".utf8)
    #expect(throws: ImportError.self) { try Importer.detect(path: "history.csv", data: data) }
    #expect(throws: ImportError.self) { try HabiticaHistoryReader.read(data, today: SharedFixtures.today, timeZone: .gmt) }
  }
}
