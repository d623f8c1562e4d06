import Foundation
import GRDB
import GRDBSQLite
import TallyStore
import Testing

@testable import TallySQLite

/// An import fills the writer's page cache, which may grow to 32 MiB and otherwise stays full
/// for the life of the server; `releaseMemory` empties it.
@Suite struct ReleaseMemoryTests {
  @Test func theWritersPageCacheEmpties() async throws {
    let store = SQLiteStore(try AppDatabase.open(at: temporaryDatabasePath()))
    try await store.database.writer.write { db in
      try db.execute(
        sql: """
          CREATE TABLE filler (bytes BLOB);
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
          INSERT INTO filler SELECT randomblob(200) FROM n;
          """)
    }
    let filled = try await writersCacheBytes(store)
    await store.releaseMemory()
    let released = try await writersCacheBytes(store)
    #expect(filled > 8 << 20, "\(filled) bytes cached after writing 8 MB")
    #expect(released < 1 << 20, "\(released) bytes cached after the release")
  }

  private func writersCacheBytes(_ store: SQLiteStore) async throws -> Int32 {
    try await store.database.writer.writeWithoutTransaction { db in
      var used: Int32 = 0
      var highest: Int32 = 0
      sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0)
      return used
    }
  }
}
