import GRDB
import Synchronization
import TallyStore

/// Tells when the database may have changed since a reader last looked.
///
/// This program's own commits are counted as they happen. Commits by anyone else (a `tally`
/// command beside the server, another server on the same file) show in SQLite's
/// `PRAGMA data_version`, which a connection sees change whenever *another* connection
/// commits: so a connection of its own that never writes sees every commit, ours included.
final class ChangeWatcher: Sendable {
  private let writes = Mutex(0)
  /// A read-only connection kept for `data_version`; `nil` for an in-memory database, which
  /// no one else can write.
  private let watcher: DatabaseQueue?

  init(path: String?) {
    var configuration = AppDatabase.configuration()
    configuration.readonly = true
    watcher = path.flatMap { try? DatabaseQueue(path: $0, configuration: configuration) }
  }

  func close() throws {
    try watcher?.close()
  }

  func recordWrite() {
    writes.withLock { $0 &+= 1 }
  }

  func revision() throws -> StoreRevision {
    let external = try watcher?.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") } ?? 0
    return StoreRevision(writes: writes.withLock { $0 }, external: external)
  }
}

extension AppDatabase {
  /// Changes whenever a committed write may have changed what a read returns.
  public func revision() throws -> StoreRevision {
    try changes.revision()
  }
}
