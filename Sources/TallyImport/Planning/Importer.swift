import Foundation
import GRDB
import TallyCore

/// One entry point for every format an import reads but Tally's JSON (which restores a whole
/// user, not habits alone).
public enum Importer {
  /// The format of the file (or Day One Classic folder) at `path`, told by what it holds,
  /// never by its name; `data` is the file's bytes (`nil` for a folder). Refuses, saying
  /// what the file is, one that is no format Tally reads.
  public static func detect(path: String, data: Data?) throws(ImportError) -> ImportFormat {
    guard let data else {
      guard DayOneClassicReader.isJournalFolder(path) else {
        throw ImportError(nil, "the folder holds no .doentry files, so it is not a Day One Classic journal")
      }
      return .dayOneClassic
    }
    guard !data.isEmpty else { throw ImportError(nil, "the file is empty (0 bytes)") }
    if data.starts(with: Array("SQLite format 3\u{0}".utf8)) { return try databaseFormat(path: path) }
    if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      return try zipFormat(path: path)
    }
    var text = data.prefix(4096)
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
    let start = text.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    // A JSON array is Table Habit's backup or no export Tally reads; Tally's reader says so.
    if start.first == UInt8(ascii: "[") {
      let list = try? JSONSerialization.jsonObject(with: data)
      return list.map(TableHabitReader.isBackup) == true ? .tableHabit : .json
    }
    if start.first == UInt8(ascii: "{") {
      // Broken JSON is read as Tally's, whose reader names the fault.
      guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return .json }
      if object["entries"] is [Any] && object["metadata"] != nil { return .dayOne }
      if HabitKitReader.isExport(object) { return .habitKit }
      if HabiticaReader.isExport(object) { return .habitica }
      return object["habits"] != nil && object["format"] == nil && object["user"] == nil ? .beaver : .json
    }
    guard let firstLine = firstLine(text) else {
      throw ImportError("line 1", "the file is not UTF-8 text, nor a database, zip or JSON Tally reads")
    }
    let header = firstLine.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
    if header.starts(with: DaylioReader.header.prefix(5)) { return .daylio }
    if header.starts(with: HabitBullReader.header.prefix(4)) { return .habitBull }
    if header.starts(with: StreaksReader.requiredColumns.prefix(4)) { return .streaks }
    if header.starts(with: HabiticaHistoryReader.header) { return .habiticaHistory }
    if header.contains("habitName") { return .csv }
    throw ImportError("line 1", "the header '\(firstLine.prefix(120))' is not one of a CSV export Tally reads")
  }

  /// The first line (of the first 4 KiB), when it is UTF-8; a character cut at the 4 KiB
  /// mark is left out.
  static func firstLine(_ bytes: Data) -> String? {
    let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
    let cut = line.count == bytes.count ? 3 : 0
    return (0...cut).lazy.compactMap { String(data: line.dropLast($0), encoding: .utf8) }.first
  }

  /// Loop's, Rewire's and Tickmate's databases by their tables, as Loop's own importers tell them.
  static func databaseFormat(path: String) throws(ImportError) -> ImportFormat {
    let tables = try SQLiteFile.read(path: path, app: "an app Tally reads") { db in
      Set(try String.fetchAll(db, sql: "SELECT lower(name) FROM sqlite_master WHERE type = 'table'"))
    }
    if tables.isSuperset(of: ["habits", "repetitions"]) { return .loopSQLite }
    if tables.isSuperset(of: ["habits", "checkins"]) { return .rewire }
    if tables.isSuperset(of: ["tracks", "ticks"]) { return .tickmate }
    let names = tables.sorted().prefix(8).joined(separator: ", ")
    throw ImportError(
      nil,
      "the file is an SQLite database of another app (its tables: \(names.isEmpty ? "none" : names)), not Loop's, Rewire's or Tickmate's")
  }

  /// Loop's CSV export holds `Habits.csv`; Day One's export a JSON file; a zipped Day One
  /// Classic folder its `.doentry` files.
  static func zipFormat(path: String) throws(ImportError) -> ImportFormat {
    let names = try ZipFiles(path: path).names
    if names.contains(where: { $0 == "Habits.csv" || $0.hasSuffix("/Habits.csv") }) { return .loopCSV }
    if names.contains(where: { $0.hasSuffix(".doentry") }) { return .dayOneClassic }
    if names.contains(where: { $0.lowercased().hasSuffix(".json") }) { return .dayOne }
    throw ImportError(
      nil, "the zip holds no Habits.csv (Loop), .json (Day One) or .doentry (Day One Classic) file")
  }

  /// Reads a file of `format` (not `.json`): from the file or folder at `path` or from `data`,
  /// as ``ImportFormat/readsPath`` says. `timeZone` is the importing user's, for journal
  /// entries that do not say theirs.
  public static func read(
    _ format: ImportFormat, path: String, data: Data, today: Day, timeZone: TimeZone = .gmt,
    progress: ProgressHandler? = nil
  ) throws(ImportError) -> ImportedHistory {
    switch format {
    case .loopSQLite: return try LoopBackupReader.read(path: path, today: today, progress: progress)
    case .loopCSV: return try LoopCSVReader.read(path: path, today: today, progress: progress)
    case .beaver: return try BeaverReader.read(data, today: today)
    case .csv: return try EntriesCSV.read(data, today: today)
    case .daylio: return try DaylioReader.read(data, today: today)
    case .dayOne: return try DayOneReader.read(path: path, data: data, today: today, timeZone: timeZone)
    case .dayOneClassic: return try DayOneClassicReader.read(path: path, today: today, timeZone: timeZone)
    case .habitBull: return try HabitBullReader.read(data, today: today)
    case .rewire: return try RewireReader.read(path: path, today: today)
    case .tickmate: return try TickmateReader.read(path: path, today: today)
    case .streaks: return try StreaksReader.read(data, today: today)
    case .habitKit: return try HabitKitReader.read(data, today: today)
    case .tableHabit: return try TableHabitReader.read(data, today: today)
    case .habitica: return try HabiticaReader.read(data, today: today)
    case .habiticaHistory: return try HabiticaHistoryReader.read(data, today: today, timeZone: timeZone)
    case .json: throw ImportError(nil, "a Tally JSON export is restored, not merged")
    }
  }
}
