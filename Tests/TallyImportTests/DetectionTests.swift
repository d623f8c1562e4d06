import Foundation
import GRDB
import TallyCore
import TallyImport
import Testing

/// Every real file is told by what it holds: each is copied to a name that says nothing.
@Suite struct DetectionTests {
  static let cases: [(String, ImportFormat)] = [
    ("loop/loop.db", .loopSQLite),
    ("loop/Loop Habits Backup 2024-03-10 120000.db", .loopSQLite),
    ("loop/loop_habits_csv_v2.3.1.zip", .loopCSV),
    ("rewire/rewire.db", .rewire),
    ("tickmate/tickmate.db", .tickmate),
    ("habitbull/habitbull.csv", .habitBull),
    ("habitbull/habitbull3.csv", .habitBull),
    ("habitbull/habitbull4.csv", .habitBull),
    ("streaks/streaks.csv", .streaks),
    ("daylio/sample.csv", .daylio),
    ("dayone/dayone2.json", .dayOne),
    ("dayone/demo.json", .dayOne),
    ("dayone/MyJournal.json", .dayOne),
  ]

  @Test(arguments: cases)
  func aFileIsToldByItsContentsNotItsName(_ file: String, _ format: ImportFormat) throws {
    let copy = temporaryFile("upload")
    try SharedFixtures.data(file).write(to: URL(fileURLWithPath: copy))
    #expect(try Importer.detect(path: copy, data: try SharedFixtures.data(file)) == format)
  }

  @Test(arguments: ["basic_dayone.dayone", "bug153.dayone", "bug780.dayone", "dayone.dayone"])
  func aDayOneClassicFolderIsToldByItsEntries(_ folder: String) throws {
    #expect(try Importer.detect(path: SharedFixtures.path("dayone/\(folder)"), data: nil) == .dayOneClassic)
  }

  @Test func aZipOfDayOnesJournalIsDayOne() throws {
    let path = try zip([("Journal.json", String(decoding: try SharedFixtures.data("dayone/demo.json"), as: UTF8.self))])
    #expect(try Importer.detect(path: path, data: try Data(contentsOf: URL(fileURLWithPath: path))) == .dayOne)
  }

  @Test func whatIsNoKnownFormatIsSaidSo() throws {
    func detect(_ data: Data) throws -> ImportFormat {
      let path = temporaryFile("upload")
      try data.write(to: URL(fileURLWithPath: path))
      return try Importer.detect(path: path, data: data)
    }
    #expect(throws: ImportError(nil, "the file is empty (0 bytes)")) { try detect(Data()) }
    #expect(throws: ImportError("line 1", "the file is not UTF-8 text, nor a database, zip or JSON Tally reads")) {
      try detect(Data([0x48, 0xE9, 0x6C, 0x6C, 0x6F, 0x0A]))
    }
    // A first line longer than the 4 KiB looked at, cut inside a character, is still text.
    let long = "HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText," + String(repeating: "é", count: 3000)
    #expect(try detect(Data(long.utf8)) == .habitBull)
    #expect(throws: ImportError("line 1", "the header 'name,date' is not one of a CSV export Tally reads")) {
      try detect(Data("name,date\nx,2020-01-01\n".utf8))
    }
    let other = temporaryFile("other.db")
    try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER); CREATE TABLE tags (id INTEGER)") }
    #expect(
      throws: ImportError(
        nil, "the file is an SQLite database of another app (its tables: notes, tags), not Loop's, Rewire's or Tickmate's")
    ) { try Importer.detect(path: other, data: try Data(contentsOf: URL(fileURLWithPath: other))) }
    let unknownZip = try zip([("readme.txt", "hello")])
    #expect(
      throws: ImportError(nil, "the zip holds no Habits.csv (Loop), .json (Day One) or .doentry (Day One Classic) file")
    ) { try Importer.detect(path: unknownZip, data: try Data(contentsOf: URL(fileURLWithPath: unknownZip))) }
  }

  /// A dry run lists each habit with its days and every warning, and writes nothing.
  @Test func aDryRunListsWhatWouldBeAddedAndWritesNothing() async throws {
    let target = try await ImportTarget()
    let history = try SharedFixtures.read("habitbull/habitbull.csv")
    let preview = try await target.run(history, dryRun: true)
    #expect(preview.format == .habitBull)
    #expect(preview.dryRun)
    #expect(preview.habitList.map(\.name) == ["Breed dragons", "Reduce sleep", "No-arms pushup", "Grow spiritually"])
    #expect(preview.habitList.map(\.entries) == [3, 4, 4, 3])
    #expect(preview.habitList.filter { !$0.isNew }.isEmpty)
    #expect(preview.warnings.contains { $0.message.hasPrefix("HabitBull's categories are not carried") })
    #expect(try await target.habits().isEmpty)
    let done = try await target.run(history)
    #expect(done.habitList == preview.habitList)
    #expect(try await target.habits().count == 4)
  }
}
