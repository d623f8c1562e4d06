import Foundation
import TallyCore

/// One entry point for every format an import reads but Tally's JSON (which restores a whole
/// user, not habits alone).
public enum Importer {
  /// The format of a file, from its first bytes, then its extension; `nil` when neither tells.
  public static func sniff(_ data: Data, path: String?) -> ImportFormat? {
    if data.starts(with: Array("SQLite format 3\u{0}".utf8)) { return .loopSQLite }
    if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .loopCSV }
    let start = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if start.first == UInt8(ascii: "{") {
      // Broken JSON is read as Tally's, whose reader names the fault.
      guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return .json }
      return object["habits"] != nil && object["format"] == nil && object["user"] == nil ? .beaver : .json
    }
    let lower = path?.lowercased() ?? ""
    if lower.hasSuffix(".csv") { return .csv }
    if lower.hasSuffix(".json") { return .json }
    if let line = String(data: data.prefix(200), encoding: .utf8)?.split(whereSeparator: \.isNewline).first,
      line.contains("habitName")
    {
      return .csv
    }
    return nil
  }

  /// Reads a file of `format` (not `.json`). The Loop formats read the file at `path`; the
  /// others read `data`.
  public static func read(
    _ format: ImportFormat, path: String, data: Data, today: Day, progress: ProgressHandler? = nil
  ) throws(ImportError) -> ImportedHistory {
    switch format {
    case .loopSQLite: return try LoopBackupReader.read(path: path, today: today, progress: progress)
    case .loopCSV: return try LoopCSVReader.read(path: path, today: today, progress: progress)
    case .beaver: return try BeaverReader.read(data, today: today)
    case .csv: return try EntriesCSV.read(data, today: today)
    case .json: throw ImportError(nil, "a Tally JSON export is restored, not merged")
    }
  }
}
