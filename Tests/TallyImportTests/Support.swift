import Foundation
import GRDB
import TallyCore
import TallyImport
import TallyTestFiles
import ZIPFoundation

func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("bad day \(text)") }
  return day
}

func fixture(_ name: String) -> String {
  Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!.path
}

let smallBackup = fixture("Loop Habits Backup 2024-03-10 120000.db")
let smallZip = fixture("Loop Habits CSV 2024-03-10.zip")

/// Reads `text` as `tally import` reads a file: the kind told from its contents.
func readDetected(_ text: String) throws -> ImportedHistory {
  let data = Data(text.utf8)
  let format = try Importer.detect(path: "import.json", data: data)
  return try Importer.read(format, path: "import.json", data: data, today: SharedFixtures.today)
}

func temporaryFile(_ name: String) -> String {
  TestFiles.folder("import").appendingPathComponent(name).path
}

/// A database in Loop's backup layout (schema 25), filled by `fill`.
func loopBackup(_ fill: (Database) throws -> Void) throws -> String {
  let path = temporaryFile("loop.db")
  // Loop's own connection does not enforce its foreign keys; the broken-file tests rely on it.
  var configuration = Configuration()
  configuration.foreignKeysEnabled = false
  let queue = try DatabaseQueue(path: path, configuration: configuration)
  try queue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE Habits ( id integer primary key autoincrement, archived integer, color integer,
          description text, freq_den integer, freq_num integer, highlight integer, name text,
          position integer, reminder_hour integer, reminder_min integer,
          reminder_days integer not null default 127, type integer not null default 0,
          target_type integer not null default 0, target_value real not null default 0,
          unit text not null default "", question text, uuid text);
        CREATE TABLE Repetitions ( id integer primary key autoincrement,
          habit integer not null references habits(id), timestamp integer not null,
          value integer not null, notes text);
        CREATE UNIQUE INDEX idx_repetitions_habit_timestamp on Repetitions( habit, timestamp);
        PRAGMA user_version = 25;
        """)
    try fill(db)
  }
  try queue.close()
  return path
}

func addLoopHabit(
  _ db: Database, id: Int, name: String, num: Int = 1, den: Int = 1, type: Int = 0, color: Int = 8,
  position: Int? = nil
) throws {
  try db.execute(
    sql: """
      INSERT INTO Habits (id, archived, color, description, freq_den, freq_num, highlight, name, position,
        reminder_days, type, question, uuid) VALUES (?, 0, ?, '', ?, ?, 0, ?, ?, 127, ?, '', ?)
      """,
    arguments: [id, color, den, num, name, position ?? id, type, UUID().uuidString])
}

func addRepetition(_ db: Database, habit: Int, day: String, value: Int, notes: String = "") throws {
  try db.execute(
    sql: "INSERT INTO Repetitions (habit, timestamp, value, notes) VALUES (?, ?, ?, ?)",
    arguments: [habit, Int64(TallyImportTests.day(day).ordinal) * 86_400_000, value, notes])
}

/// A zip holding `files` (path → text), in Loop's CSV export layout when given its files.
func zip(_ files: [(String, String)]) throws -> String {
  let path = temporaryFile("loop.zip")
  let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
  for (name, text) in files {
    let data = Data(text.utf8)
    try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
      position, size in data.subdata(in: Int(position)..<Int(position) + size)
    }
  }
  return path
}

let loopHabitsHeader =
  "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n"
