import Foundation
import TallyCore

/// A new, empty folder under the temporary directory.
func temporaryFolder() -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("tally-sqlite-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

func temporaryDatabasePath() -> String {
  temporaryFolder().appendingPathComponent("tally.sqlite").path
}

func bytes(_ path: String) throws -> Data {
  try Data(contentsOf: URL(fileURLWithPath: path))
}

func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("bad day \(text)") }
  return day
}

/// Milliseconds since 1970, the precision instants are stored at.
func instant(ms: Int64) -> Date {
  Date(timeIntervalSince1970: Double(ms) / 1000)
}
