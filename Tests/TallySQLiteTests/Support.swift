import Foundation
import GRDB
import TallyCore
import TallyStore
import TallyTestFiles

@testable import TallySQLite

/// A new, empty folder under the temporary directory.
func temporaryFolder() -> URL {
  TestFiles.folder("sqlite")
}

func temporaryDatabasePath() -> String {
  TestFiles.database("sqlite")
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

/// A file at the first `steps` schema versions, with ada (Europe/Berlin) added in that
/// version's SQL, then `rows` written; migration tests start from it.
func databaseAtVersion(_ steps: Int, user: UUID, rows: (Database) throws -> Void) throws -> String {
  let path = temporaryDatabasePath()
  let queue = try DatabaseQueue(path: path)
  try Migrations.migrator(Array(Migrations.all.prefix(steps))).migrate(queue)
  try queue.write { db in
    try db.execute(
      sql: """
        INSERT INTO users (id, name, time_zone, day_switch_hour, first_weekday, locale,
          show_date_picker_grid, show_grid_dates)
        VALUES (?, 'ada', 'Europe/Berlin', 3, 'monday', 'en_US', 1, 0)
        """,
      arguments: [user.storeText])
    try rows(db)
  }
  try queue.close()
  return path
}

/// Compacts the database at `path` into one self-contained file (no WAL beside it) and puts it
/// in Fixtures/ as `version`.sqlite. Only ever run by hand, while that version is the newest.
func keepAsFixture(_ path: String, version: String) async throws {
  let queue = try DatabaseQueue(path: path)
  try await queue.writeWithoutTransaction { db in
    try db.execute(sql: "PRAGMA journal_mode = DELETE")
    try db.execute(sql: "VACUUM")
  }
  try queue.close()
  let target = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/\(version).sqlite")
  try? FileManager.default.removeItem(at: target)
  try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: target)
}
