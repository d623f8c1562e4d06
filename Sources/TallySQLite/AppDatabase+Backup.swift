import Foundation
import GRDB
import TallyStore

extension AppDatabase {
  /// Copies the whole database into a new file at `path` with SQLite's online backup, which
  /// reads a consistent snapshot while other connections keep writing. Refuses to replace an
  /// existing file; the copy is then opened like any database, so a broken copy is reported
  /// here rather than on the day it is needed, and left as one file (no `-wal` beside it).
  public func backup(to path: String) throws(StoreError) {
    guard !FileManager.default.fileExists(atPath: path) else {
      throw .unreadable(
        path: path, reason: "a file is already there, and a backup never replaces one")
    }
    do {
      let destination = try DatabaseQueue(path: path, configuration: AppDatabase.configuration())
      try writer.backup(to: destination)
      try destination.close()
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      throw .unreadable(path: path, reason: AppDatabase.reason(error))
    }
    _ = try AppDatabase.open(at: path)
    // Out of WAL mode, so the copy is one self-contained file to move or download; Tally
    // turns WAL back on when it opens it.
    do {
      let copy = try DatabaseQueue(path: path)
      try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
      try copy.close()
    } catch {
      throw .unreadable(path: path, reason: AppDatabase.reason(error))
    }
  }
}
