import Foundation
import GRDB
import TallyCore
import TallyImport
import Testing

/// HabitBull, Rewire, Tickmate and Streaks files, each checked against the test's own reading.
@Suite struct TrackerFileTests {
  /// Rows of a CSV whose fields hold no quoted commas but in the description column (HabitBull)
  /// or the quoted title (Streaks): the test's own reading, by the last columns.
  static func lines(_ file: String) throws -> [[String]] {
    String(decoding: try SharedFixtures.data(file), as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst()
      .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
  }

  @Test(arguments: ["habitbull/habitbull.csv", "habitbull/habitbull3.csv", "habitbull/habitbull4.csv"])
  func habitBullDaysAndAmounts(_ file: String) async throws {
    let history = try SharedFixtures.read(file)
    // Name first; date, value and comment are the last three fields.
    var days: [String: Set<String>] = [:]
    var values: [String: [String: Int]] = [:]
    for fields in try Self.lines(file) {
      let count = fields.count
      days[fields[0], default: []].insert(fields[count - 3])
      values[fields[0], default: [:]][fields[count - 3]] = Int(fields[count - 2])!
    }
    #expect(Set(history.habits.map(\.name)) == Set(days.keys))
    for habit in history.habits {
      #expect(Set(habit.entries.map(\.day.description)) == days[habit.name], "\(habit.name)")
      let numeric = values[habit.name]!.values.contains { $0 > 1 }
      #expect((habit.measure != nil) == numeric, "\(habit.name)")
      if numeric {
        for entry in habit.entries {
          #expect(entry.amount == Amount(values[habit.name]![entry.day.description]!))
        }
      }
    }
    let target = try await ImportTarget()
    let summary = try await target.runTwice(history)
    #expect(summary.entries == days.values.map(\.count).reduce(0, +))
  }

  @Test func habitBullKeepsTheCommentAndReportsRepeatedRows() throws {
    let history = try SharedFixtures.read("habitbull/habitbull.csv")
    let dragons = try #require(history.habits.first { $0.name == "Breed dragons" })
    #expect(dragons.entries.first == HabitEntry(day: day("2016-03-18"), status: .done, note: "text"))
    #expect(dragons.description == "with love and fire")
    #expect(history.warnings.contains { $0.habit == "No-arms pushup" && $0.message.hasPrefix("4 rows for a day already read left out") })
  }

  @Test func rewireDoneCheckInsAndSchedules() async throws {
    let history = try SharedFixtures.read("rewire/rewire.db")
    let expected = try SharedFixtures.query("rewire/rewire.db") { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT h.name, (SELECT COUNT(DISTINCT date) FROM CHECKINS c WHERE c.habit_id = h._id AND c.type = 2) AS done,
            (SELECT COUNT(*) FROM CHECKINS c WHERE c.habit_id = h._id AND c.type <> 2) AS other
          FROM Habits h ORDER BY h._id
          """
      ).map { ($0["name"] as String, $0["done"] as Int, $0["other"] as Int) }
    }
    #expect(history.habits.map(\.name) == expected.map(\.0))
    #expect(history.habits.map { $0.entries.filter { $0.status == .done }.count } == expected.map(\.1))
    // Wake up early's active_days 1,3,5: Rewire counts weekdays from 0, Sunday.
    let monWedFri = Frequency.weekdays(try WeekdaySet([.monday, .wednesday, .friday]))
    #expect(history.habits.map(\.frequency) == [monWedFri, .weekly(targetPerWeek: 3), .timesInDays(times: 1, days: 5)])
    // brush teeth's reminder, 480 minutes after midnight on 5 weekdays.
    #expect(history.habits.map(\.reminder) == [.none, .single(try WallTime(hour: 8, minute: 0)), .none])
    #expect(history.warnings.contains { $0.habit == "brush teeth" && $0.message.hasSuffix("was on some weekdays only; Tally reminds every day") })
    let others = expected.map(\.2).reduce(0, +)
    #expect(history.warnings.filter { $0.message.contains("left out: only type 2 is a day done") }
      .compactMap { Int($0.message.prefix { $0.isNumber }) }.reduce(0, +) == others)
    #expect(!history.warnings.contains { $0.habit == "Wake up early" })
    let target = try await ImportTarget()
    let summary = try await target.runTwice(history)
    #expect(summary.entries == expected.map(\.1).reduce(0, +))
  }

  @Test func tickmateMonthsCountFromZeroAndSeveralTicksADayAreAmounts() async throws {
    let history = try SharedFixtures.read("tickmate/tickmate.db")
    let expected = try SharedFixtures.query("tickmate/tickmate.db") { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT t.name, t.multiple_entries_per_day AS many, k.year, k.month + 1 AS month, k.day, COUNT(*) AS ticks
          FROM tracks t JOIN ticks k ON k._track_id = t._id GROUP BY t._id, k.year, k.month, k.day
          """
      ).map { row in
        (row["name"] as String, row["many"] as Int,
         String(format: "%04d-%02d-%02d", row["year"] as Int, row["month"] as Int, row["day"] as Int), row["ticks"] as Int)
      }
    }
    #expect(Set(history.habits.map(\.name)) == Set(expected.map(\.0)))
    for habit in history.habits {
      let days = expected.filter { $0.0 == habit.name }
      #expect(habit.entries.map(\.day.description) == days.map(\.2).sorted(), "\(habit.name)")
      if days.first?.1 == 1 {
        #expect(habit.measure?.unit == "ticks")
        let ticks = Dictionary(uniqueKeysWithValues: days.map { ($0.2, $0.3) })
        #expect(habit.entries.allSatisfy { $0.amount == Amount(ticks[$0.day.description]!) })
      }
    }
    let timed = try SharedFixtures.query("tickmate/tickmate.db") { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ticks WHERE has_time_info = 1") }
    #expect(history.warnings.contains { $0.message == "the times of \(timed ?? 0) ticks are not carried (Tally keeps days)" })
    // January 2016 is month 0: the first tick is in it.
    #expect(history.habits.flatMap(\.entries).map(\.day).min()?.month == 1)
    let target = try await ImportTarget()
    try await target.runTwice(history)
  }

  @Test func tickmateMonthOutOfRangeIsNamed() throws {
    let path = temporaryFile("tickmate.db")
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          CREATE TABLE tracks(_id integer primary key, name text not null, description text not null);
          CREATE TABLE ticks(_id integer primary key, _track_id integer, year integer, month integer, day integer);
          INSERT INTO tracks VALUES (1, 'Run', '');
          INSERT INTO ticks VALUES (7, 1, 2016, 12, 1);
          """)
    }
    #expect(throws: ImportError("the tick with id 7 in the table ticks", "its date 2016-12-1 is not a day (Tickmate counts months from 0)")) {
      try TickmateReader.read(path: path, today: SharedFixtures.today)
    }
  }

  @Test func streaksCompletedDaysAreDoneAndMissedDaysCounted() async throws {
    let history = try SharedFixtures.read("streaks/streaks.csv")
    var done: [String: Set<String>] = [:]
    var missed: [String: Int] = [:]
    for fields in try Self.lines("streaks/streaks.csv") {
      let title = fields[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      if fields[2].hasPrefix("completed") { done[title, default: []].insert(fields[3]) }
      if fields[2].hasPrefix("missed") { missed[title, default: 0] += 1 }
    }
    #expect(history.habits.count == 3)
    for habit in history.habits {
      #expect(Set(habit.entries.map { $0.day.description.replacingOccurrences(of: "-", with: "") }) == done[habit.name] ?? [])
      #expect(habit.entries.allSatisfy { $0.status == .done })
      if let count = missed[habit.name] {
        #expect(history.warnings.contains { $0.habit == habit.name && $0.message == "\(count) missed day\(count == 1 ? "" : "s") kept as days without an entry" })
      }
    }
    let target = try await ImportTarget()
    try await target.runTwice(history)
  }

  @Test func streaksQuantitiesAreAmountsAndSkipsSkipped() throws {
    let csv = """
      task_id,title,entry_type,entry_date,entry_timestamp,entry_timezone,quantity,notes
      a,Water,completed_manually,20240101,2024-01-01T10:00:00Z,UTC,8,"two, then six"
      a,Water,skipped_manually,20240102,2024-01-02T10:00:00Z,UTC,,
      a,Water,missed_auto,20240103,2024-01-03T10:00:00Z,UTC,0,
      """
    let history = try StreaksReader.read(Data(csv.utf8), today: SharedFixtures.today)
    let water = try #require(history.habits.first)
    #expect(water.measure != nil)
    #expect(water.entries == [
      HabitEntry(day: day("2024-01-01"), status: .done, note: "two, then six", amount: Amount(8)),
      HabitEntry(day: day("2024-01-02"), status: .skipped),
    ])
    #expect(throws: ImportError("line 2 of the Streaks CSV", "the entry_type 'paused' is not one Streaks writes (completed_…, missed_… or skipped_…)")) {
      try StreaksReader.read(Data("task_id,title,entry_type,entry_date\na,W,paused,20240101\n".utf8), today: SharedFixtures.today)
    }
    #expect(throws: ImportError("line 2 of the Streaks CSV", "the entry_date '2024-13-01' is not a date")) {
      try StreaksReader.read(Data("task_id,title,entry_type,entry_date\na,W,completed_manually,2024-13-01\n".utf8), today: SharedFixtures.today)
    }
  }

  @Test func anotherAppsFileOrABadRowIsNamedAndNothingIsRead() throws {
    let today = SharedFixtures.today
    #expect(throws: ImportError(nil, "the file has no table CHECKINS; it is not a backup of Rewire")) {
      try RewireReader.read(path: SharedFixtures.path("loop/loop.db"), today: today)
    }
    #expect(throws: ImportError(nil, "the file has no table tracks; it is not a backup of Tickmate")) {
      try TickmateReader.read(path: SharedFixtures.path("rewire/rewire.db"), today: today)
    }
    let empty = temporaryFile("empty.db")
    try Data().write(to: URL(fileURLWithPath: empty))
    #expect(throws: ImportError(nil, "the file has no table tracks; it is not a backup of Tickmate")) {
      try TickmateReader.read(path: empty, today: today)
    }
    func habitBull(_ row: String) throws -> ImportedHistory {
      try HabitBullReader.read(Data("HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\n\(row)\n".utf8), today: today)
    }
    #expect(throws: ImportError("line 2 of the HabitBull CSV", "the Value 'x' is not a whole number of 0 or more")) {
      try habitBull("Run,,,2020-01-01,x,")
    }
    #expect(throws: ImportError("line 2 of the HabitBull CSV", "the date 1969-07-20 is before 1970 or after 9999, not one a habit tracker wrote")) {
      try habitBull("Run,,,07/20/1969,1,")
    }
    #expect(throws: ImportError("line 2 of the HabitBull CSV", "it has 2 fields where the header has 6")) {
      try habitBull("Run,1")
    }
  }

  @Test func rewireAmountsAndCategoriesAreReportedNotDropped() throws {
    let path = temporaryFile("rewire.db")
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          CREATE TABLE Habits (_id INTEGER PRIMARY KEY, Name TEXT NOT NULL, schedule INTEGER, days INTEGER,
            period INTEGER, category INTEGER);
          CREATE TABLE CHECKINS (_id INTEGER PRIMARY KEY, Habit_id INTEGER NOT NULL, date TEXT NOT NULL,
            type INTEGER NOT NULL, note TEXT, actual_count REAL);
          INSERT INTO Habits VALUES (1, 'Water', 1, 7, 0, 3);
          INSERT INTO CHECKINS VALUES (1, 1, '20240101', 2, 'cold', 2.5), (2, 1, '20240102', 1, NULL, 0);
          """)
    }
    let history = try RewireReader.read(path: path, today: SharedFixtures.today)
    #expect(history.habits.first?.entries == [HabitEntry(day: day("2024-01-01"), status: .done, note: "cold")])
    #expect(history.habits.first?.frequency == .daily)
    #expect(history.warnings.map(\.message) == [
      "1 check-in of type 1 left out: only type 2 is a day done (as Loop's importer reads Rewire)",
      "1 check-in records an amount (actual_count), which is not imported: Rewire's amounts are not documented, so each is a day done or not as its type says",
      "the categories of 1 habit are not carried (Tally has none)",
    ])
  }

  @Test func rewireChosenWeekdaysKeepTheirDaysAndBadListsAreRefused() throws {
    func frequency(_ activeDays: String) throws -> Frequency? {
      let path = temporaryFile("rewire-weekdays.db")
      try? FileManager.default.removeItem(atPath: path)
      try DatabaseQueue(path: path).write { db in
        try db.execute(
          sql: """
            CREATE TABLE Habits (_id INTEGER PRIMARY KEY, name TEXT NOT NULL, schedule INTEGER, active_days TEXT);
            CREATE TABLE CHECKINS (_id INTEGER PRIMARY KEY, habit_id INTEGER NOT NULL, date TEXT NOT NULL, type INTEGER);
            INSERT INTO Habits VALUES (7, 'Swim', 0, ?);
            """, arguments: [activeDays])
      }
      return try RewireReader.read(path: path, today: SharedFixtures.today).habits.first?.frequency
    }
    #expect(try frequency("0,6") == .weekdays(try WeekdaySet([.sunday, .saturday])))
    #expect(try frequency("6,5,4,3,2,1,0") == .daily)
    #expect(throws: ImportError("the habit with _id 7 in the table Habits", "its active_days '1,7' are not weekdays 0 (Sunday) to 6 (Saturday)")) {
      try frequency("1,7")
    }
  }
}
