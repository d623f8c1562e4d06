import Foundation
import GRDB

/// Another app's SQLite file, read through a read-only connection: the file is never
/// changed, not even its journal.
enum SQLiteFile {
  /// Runs `body` in one read transaction. `app` names whose backup the file should be, for
  /// the error when it is not readable.
  static func read<T>(path: String, app: String, _ body: (Database) throws -> T) throws(ImportError) -> T {
    let queue: DatabaseQueue
    do {
      var configuration = Configuration()
      configuration.readonly = true
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw ImportError(nil, "the file cannot be opened as an SQLite database (\(reason(error)))")
    }
    do {
      return try queue.read { db in try body(db) }
    } catch let error as ImportError {
      throw error
    } catch {
      throw ImportError(nil, "the file is not a readable backup of \(app) (\(reason(error)))")
    }
  }

  static func reason(_ error: any Error) -> String {
    (error as? DatabaseError)?.message ?? String(describing: error)
  }

  /// The table's columns, lower case; refuses a missing table, naming `app`.
  static func columns(_ db: Database, table: String, app: String) throws -> Set<String> {
    guard try db.tableExists(table) else {
      throw ImportError(nil, "the file has no table \(table); it is not a backup of \(app)")
    }
    return Set(try db.columns(in: table).map { $0.name.lowercased() })
  }

  /// Refuses a table without `required` columns.
  static func require(_ required: [String], in table: String, of db: Database, app: String) throws -> Set<String> {
    let present = try columns(db, table: table, app: app)
    let missing = required.filter { !present.contains($0) }
    guard missing.isEmpty else {
      throw ImportError(
        "the table \(table)",
        "the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing, so it is not a backup of \(app)")
    }
    return present
  }
}

/// A stored value as an error message shows it: numbers as they are, text quoted.
func describe(_ value: DatabaseValue) -> String {
  switch value.storage {
  case .null: "empty"
  case .int64(let number): "\(number)"
  case .double(let number): "\(number)"
  case .string(let text): "'\(text)'"
  case .blob(let data): "a blob of \(data.count) bytes"
  }
}

extension Row {
  /// The column's value when it converts to `T` exactly, else `nil`: a malformed file gives
  /// an error naming the row, never a crash.
  func value<T: DatabaseValueConvertible>(_ column: String) -> T? {
    T.fromDatabaseValue(self[column] as DatabaseValue)
  }
}
