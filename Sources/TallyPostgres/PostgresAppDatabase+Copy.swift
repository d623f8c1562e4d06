import Foundation
import PostgresNIO
import TallyStore

extension PostgresAppDatabase {
  /// Copies every table of ``DatabaseCopy/tables`` from `source` into this database in one
  /// transaction: all of it, or, when anything fails, nothing. `source` hands a table's rows
  /// to its sink in batches. Refuses a database that already holds users. The copy keeps ids,
  /// the sync device and every feed position, so devices go on syncing as before. The copied
  /// tables are analyzed afterwards, so the first requests are planned with their statistics.
  public func copy(
    from source: @escaping @Sendable (String, (DatabaseCopy.Batch) async throws -> Void) async throws -> Void
  ) async throws {
    do {
      try await transaction(timeLimited: false) { connection in
        guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM users)") else {
          throw StoreError.conflict("the PostgreSQL database \(self.location.description) already holds users; copy into an empty one")
        }
        // The new database's own device id gives way to the copied one.
        try await connection.run("DELETE FROM sync_meta")
        var latestStamp: String?
        for table in DatabaseCopy.tables {
          let target = try await connection.columns(of: table)
          try await source(table) { batch in
            try await connection.insert(batch, into: table, columns: target)
            if table == "sync_meta", let index = batch.columns.firstIndex(of: "latest_stamp"),
              case .text(let stamp)? = batch.rows.first?[index]
            {
              latestStamp = stamp
            }
          }
        }
        // SQLite keeps one latest stamp for the file; PostgreSQL one per user.
        if let latestStamp { try await connection.run("UPDATE sync_heads SET latest_stamp = \(latestStamp)") }
      }
      // Without statistics the planner takes a fresh copy's tables for nearly empty and may scan
      // them whole, until autovacuum gets to them, a minute or more later.
      _ = try await withConnection { connection in
        try await connection.run(PostgresQuery(unsafeSQL: "ANALYZE " + DatabaseCopy.tables.joined(separator: ", ")))
      }
    } catch {
      throw PostgresStore.storeError(error)
    }
  }

  /// How many rows each of `tables` holds.
  public func rowCounts(_ tables: [String]) async throws -> [String: Int] {
    try await transaction(.repeatableReadOnly) { connection in
      var counts: [String: Int] = [:]
      for table in tables {
        counts[table] = Int(try await connection.values(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), as: Int64.self).first ?? 0)
      }
      return counts
    }
  }
}

/// A column of the target table: its type says how a copied cell is cast.
private struct TargetColumn: Sendable {
  let type: String
  let isIdentity: Bool
}

extension PostgresConnection {
  fileprivate func columns(of table: String) async throws -> [String: TargetColumn] {
    var columns: [String: TargetColumn] = [:]
    for row in try await rows(
      """
      SELECT column_name, data_type, is_identity FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = \(table)
      """)
    {
      columns[try PostgresRows.text(row, "column_name")] = TargetColumn(
        type: try PostgresRows.text(row, "data_type"), isIdentity: try PostgresRows.text(row, "is_identity") == "YES")
    }
    return columns
  }

  /// One batch in one statement: the rows travel as a JSON array of arrays and each cell is
  /// cast to its column's type. Columns the target lacks are left out.
  fileprivate func insert(_ batch: DatabaseCopy.Batch, into table: String, columns target: [String: TargetColumn])
    async throws
  {
    var kept: [(index: Int, name: String, column: TargetColumn)] = []
    for (index, name) in batch.columns.enumerated() {
      if let column = target[name] { kept.append((index, name, column)) }
    }
    let json = try JSONSerialization.data(
      withJSONObject: batch.rows.map { row in kept.map { Self.json(row[$0.index]) } })
    let casts = kept.enumerated().map { position, item in Self.cast("r->>\(position)", to: item.column.type) }
    let overriding = kept.contains { $0.column.isIdentity } ? "OVERRIDING SYSTEM VALUE" : ""
    let sql = """
      INSERT INTO \(table) (\(kept.map(\.name).joined(separator: ", "))) \(overriding)
      SELECT \(casts.joined(separator: ", ")) FROM json_array_elements($1::json) AS r
      """
    var bindings = PostgresBindings()
    bindings.append(String(decoding: json, as: UTF8.self))
    try await run(PostgresQuery(unsafeSQL: sql, binds: bindings))
    for item in kept where item.column.isIdentity {
      try await run(
        PostgresQuery(
          unsafeSQL: """
            SELECT setval(pg_get_serial_sequence('\(table)', '\(item.name)'), (SELECT max(\(item.name)) FROM \(table)))
            """))
    }
  }

  private static func json(_ cell: DatabaseCopy.Cell) -> Any {
    switch cell {
    case .null: NSNull()
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .text(let text): text
    case .blob(let data): data.map { String(format: "%02x", $0) }.joined()
    }
  }

  private static func cast(_ expression: String, to type: String) -> String {
    switch type {
    case "bytea": "decode(\(expression), 'hex')"
    case "text": expression
    default: "(\(expression))::\(type)"
    }
  }
}
