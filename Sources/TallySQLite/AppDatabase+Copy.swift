import Foundation
import GRDB
import TallyStore

extension AppDatabase {
  /// Reads `table` in batches ordered by its row id (the order rows were added, which chat
  /// keeps), or its primary key for a table without one, handing each to `sink` before
  /// reading the next, so a table of millions of entries never sits in memory whole. Each batch
  /// is its own read: copy a database nothing writes to (a stopped server).
  public func copyRows(
    of table: String, batchSize: Int = DatabaseCopy.batchSize,
    into sink: (DatabaseCopy.Batch) async throws -> Void
  ) async throws {
    let (columns, key) = try await reader.read { db in
      let info = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
      let withoutRowID =
        try Bool.fetchOne(
          db, sql: "SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_schema WHERE type = 'table' AND name = ?",
          arguments: [table]) ?? false
      let key = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
      return (info.map { $0["name"] as String }, withoutRowID ? key.map { $0["name"] as String } : [])
    }
    guard !columns.isEmpty else { throw StoreError.corrupt("the database has no table \(table)") }
    let quoted = columns.map { "\"\($0)\"" }
    try await copyRows(
      columns: columns, select: quoted, from: "\"\(table)\"", where: "true",
      key: key.isEmpty ? ["rowid"] : key.map { "\"\($0)\"" }, batchSize: batchSize, into: sink)
    if table == "sync_entities" {
      // A marked day's feed row is its `habit_entries` row here; other engines keep a row.
      try await copyRows(
        columns: columns, select: SyncFeedSQL.markedDayColumns, from: "habit_entries", where: "stamp IS NOT NULL",
        key: ["habit_id", "day"], batchSize: batchSize, into: sink)
    }
  }

  /// `select` (one expression per name in `columns`) of the rows of `from` that pass `where`,
  /// in batches ordered by `key`.
  private func copyRows(
    columns: [String], select: [String], from: String, where filter: String, key: [String], batchSize: Int,
    into sink: (DatabaseCopy.Batch) async throws -> Void
  ) async throws {
    let keyList = key.joined(separator: ", ")
    let query = "SELECT \(select.joined(separator: ", ")), \(keyList) FROM \(from) WHERE \(filter)"
    var last: [DatabaseValue]?
    while true {
      let (rows, next) = try await reader.read { [last] db -> ([[DatabaseCopy.Cell]], [DatabaseValue]?) in
        let sql =
          last == nil
          ? "\(query) ORDER BY \(keyList) LIMIT \(batchSize)"
          : "\(query) AND (\(keyList)) > (\(last!.map { _ in "?" }.joined(separator: ", "))) ORDER BY \(keyList) LIMIT \(batchSize)"
        let fetched = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(last ?? []))
        let cells = fetched.map { row in (0..<columns.count).map { Self.cell(row[$0] as DatabaseValue) } }
        let next = fetched.last.map { row in (columns.count..<(columns.count + key.count)).map { row[$0] as DatabaseValue } }
        return (cells, next)
      }
      if !rows.isEmpty { try await sink(DatabaseCopy.Batch(columns: columns, rows: rows)) }
      guard rows.count == batchSize, let next else { return }
      last = next
    }
  }

  /// How many rows each of `tables` holds; `sync_entities` counts the feed, marked days too.
  public func rowCounts(_ tables: [String]) async throws -> [String: Int] {
    try await reader.read { db in
      var counts: [String: Int] = [:]
      for table in tables { counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0 }
      if let feed = counts["sync_entities"] {
        counts["sync_entities"] = feed + (try Int.fetchOne(db, sql: "SELECT count(*) FROM habit_entries WHERE stamp IS NOT NULL") ?? 0)
      }
      return counts
    }
  }

  private static func cell(_ value: DatabaseValue) -> DatabaseCopy.Cell {
    switch value.storage {
    case .null: .null
    case .int64(let number): .integer(number)
    case .double(let number): .real(number)
    case .string(let text): .text(text)
    case .blob(let data): .blob(data)
    }
  }
}
