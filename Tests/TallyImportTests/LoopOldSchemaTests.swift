import Foundation
import GRDB
import TallyCore
import TallyImport
import Testing

/// Loop's old backups: `loop.db` (schema 12: no value, type or notes; ARGB colours) is read
/// as Loop's own migrations would read it.
@Suite struct LoopOldSchemaTests {
  @Test func loopsSchema12BackupImportsEveryRepetitionAsADayDone() async throws {
    let history = try SharedFixtures.read("loop/loop.db")
    #expect(history.format == .loopSQLite)
    // The independent reading: every row of Repetitions is a day done, per habit in position order.
    let expected = try SharedFixtures.query("loop/loop.db") { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT h.name, h.freq_num, h.freq_den, h.color, COUNT(DISTINCT r.timestamp) AS days
          FROM Habits h LEFT JOIN Repetitions r ON r.habit = h.Id GROUP BY h.Id ORDER BY h.position
          """
      ).map { ($0["name"] as String, $0["freq_num"] as Int, $0["freq_den"] as Int, $0["color"] as Int, $0["days"] as Int) }
    }
    #expect(expected.count == 9)
    #expect(history.habits.map(\.name) == expected.map(\.0))
    #expect(history.habits.map(\.entries.count) == expected.map(\.4))
    #expect(history.habits.allSatisfy { $0.entries.allSatisfy { $0.status == .done && $0.note == nil && $0.amount == nil } })
    for (habit, row) in zip(history.habits, expected) {
      // Before schema 14 the colour was the ARGB value the person saw.
      let argb = UInt32(truncatingIfNeeded: row.3)
      #expect(habit.color == HexColor(red: UInt8(argb >> 16 & 0xFF), green: UInt8(argb >> 8 & 0xFF), blue: UInt8(argb & 0xFF)))
      #expect(habit.frequency == LoopMapping.frequency(numerator: row.1, denominator: row.2).0)
      #expect(habit.measure == nil)
    }
    #expect(history.habits[0].frequency == .weekly(targetPerWeek: 3))
    #expect(history.habits[2].frequency == .timesInDays(times: 1, days: 5))
    #expect(history.habits[1].description == "I want to have beautiful teeth!")
    #expect(history.warnings.isEmpty)

    let target = try await ImportTarget()
    let summary = try await target.runTwice(history)
    #expect(summary.entries == expected.map(\.4).reduce(0, +))
    // Names repeat in the file (Vegan, Sport, I love you): the later ones get a number.
    #expect(try await target.habits().map(\.name).suffix(3) == ["Vegan (2)", "Sport (2)", "I love you (2)"])
  }

  /// Schemas 16–21: values but no notes, and colours from the 13-colour palette; rows Loop's
  /// migration 22 deleted are left out with a warning.
  @Test func aSchema18BackupReadsValuesAndSpreadsOldColours() throws {
    let path = temporaryFile("loop18.db")
    // Loop's connection did not enforce its foreign keys: a repetition of a missing habit is possible.
    var configuration = Configuration()
    configuration.foreignKeysEnabled = false
    try DatabaseQueue(path: path, configuration: configuration).write { db in
      try db.execute(
        sql: """
          CREATE TABLE Habits (id integer primary key autoincrement, archived integer, color integer, description text,
            freq_den integer, freq_num integer, highlight integer, name text, position integer, reminder_hour integer,
            reminder_min integer, reminder_days integer not null default 127, type integer not null default 0,
            target_type integer not null default 0, target_value real not null default 0, unit text not null default "");
          CREATE TABLE Repetitions (id integer primary key autoincrement, habit integer references habits(id),
            timestamp integer, value integer not null default 2);
          INSERT INTO Habits VALUES (1, 0, 5, 'Why', 1, 1, 0, 'Run', 0, NULL, NULL, 127, 1, 0, 5, 'km');
          INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, 1451606400000, 7500), (1, 1451606400000, 100),
            (1, 1451692800000, 3), (9, 1451692800000, 2);
          PRAGMA user_version = 18;
          """)
    }
    let history = try LoopBackupReader.read(path: path, today: SharedFixtures.today)
    let run = try #require(history.habits.first)
    #expect(run.color == LoopMapping.palette[8])
    #expect(run.measure?.unit == "km")
    #expect(run.entries == [
      HabitEntry(day: day("2016-01-01"), status: .done, amount: Amount(thousandths: 7500)),
      HabitEntry(day: day("2016-01-02"), status: .skipped),
    ])
    #expect(history.warnings.map(\.message) == [
      "2 repetitions of a missing habit, without a day or repeating a day were left out, as Loop itself does since its schema 22"
    ])
  }
}
