import Foundation
import GRDB
import Synchronization
import TallyStore

/// Tells readers when a user's data moved (``FeedHeads``) and when who may sign in changed
/// (``SignInCache``).
///
/// This program's commits report themselves: temporary triggers on the writer connection hand
/// every `sync_heads` row a transaction moves, and every change to a user, an API token or a
/// session, to ``committed()``, which the store passes on once the transaction has committed.
/// Commits by anyone else (a `tally` command beside the server, another server on the same
/// file) show in `PRAGMA data_version`, which a connection sees change whenever *another*
/// connection commits: a read-only connection of our own sees every commit, ours included,
/// and the writer sees only other processes'.
final class ChangeWatcher: Sendable {
  let heads = FeedHeads()
  let signIns = SignInCache()
  private let pending = PendingChanges()
  /// A read-only connection kept for `data_version`; `nil` for an in-memory database, which
  /// no one else can write.
  private let watcher: DatabaseQueue?
  /// The versions the watcher and the writer last showed.
  private let seen = Mutex<(watcher: Int, writer: Int)?>(nil)

  init(path: String?, writer: any DatabaseWriter) throws {
    var configuration = AppDatabase.configuration()
    configuration.readonly = true
    watcher = try path.map { try DatabaseQueue(path: $0, configuration: configuration) }
    try writer.writeWithoutTransaction { db in
      db.add(
        function: DatabaseFunction("tally_head_moved", argumentCount: 2, pure: false) { [weak self] values in
          if let user = String.fromDatabaseValue(values[0]).flatMap(UUID.init(uuidString:)),
            let position = Int64.fromDatabaseValue(values[1])
          {
            self?.pending.record(user, position)
          }
          return nil
        })
      db.add(
        function: DatabaseFunction("tally_sign_ins_changed", argumentCount: 0, pure: false) { [weak self] _ in
          self?.pending.recordSignInChange()
          return nil
        })
      try db.execute(
        sql: """
          CREATE TEMP TRIGGER tally_head_made AFTER INSERT ON main.sync_heads
          BEGIN SELECT tally_head_moved(NEW.user_id, NEW.position); END;
          CREATE TEMP TRIGGER tally_head_moved AFTER UPDATE OF position ON main.sync_heads
          BEGIN SELECT tally_head_moved(NEW.user_id, NEW.position); END;
          """)
      for table in ["users", "api_tokens", "sessions"] {
        for event in ["UPDATE", "DELETE"] {
          try db.execute(
            sql: """
              CREATE TEMP TRIGGER tally_\(table)_\(event.lowercased()) AFTER \(event) ON main.\(table)
              BEGIN SELECT tally_sign_ins_changed(); END
              """)
        }
      }
    }
  }

  func close() throws {
    try watcher?.close()
  }

  /// At the start of a write transaction: forgets what writes made some other way reported.
  func beginWrite() {
    pending.reset()
  }

  /// At the end of a write transaction: what it changed, to pass on once it commits.
  func committed() -> PendingChanges.Committed {
    pending.take()
  }

  /// Runs `catchUp` when another process committed since the last call, and only then
  /// takes the versions as seen, so a reader that comes meanwhile catches up too. One read of
  /// the watcher's version, and of the writer's only when the watcher's moved.
  func whenOthersCommitted(writer: any DatabaseWriter, catchUp: () async throws -> Void) async throws {
    guard let watcher else { return }
    // On the caller's thread: a microsecond on a connection of its own, where an asynchronous
    // read would cost every request two hops between threads.
    let version = try watcher.inDatabase { db in
      try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
    } ?? 0
    let last = seen.withLock { $0 }
    if last?.watcher == version { return }
    // Outside a transaction: the pragma starts its own read, which sees other processes'
    // commits, and takes no write lock from them.
    let writerVersion = try await writer.writeWithoutTransaction { db in
      try Int.fetchOne(db, sql: "PRAGMA data_version")
    } ?? 0
    if last?.writer != writerVersion { try await catchUp() }
    seen.withLock { $0 = (version, writerVersion) }
  }
}
