import Foundation
import GRDB
import TallyStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one owner of a Tally database: opens it, refuses what it must not touch, migrates it,
/// and hands out the connection the SQLite repositories use.
///
/// A file is opened as a WAL `DatabasePool` (readers never wait for the writer) with foreign
/// keys on and `synchronous = FULL`, so a committed write survives a crash. Every write goes
/// through one transaction.
public struct AppDatabase: Sendable {
  /// Reads and writes; every `write` is a transaction.
  public let writer: any DatabaseWriter
  /// The file, or `nil` for an in-memory database.
  public let path: String?
  /// Reports the feed heads commits move, this program's and others' (``FeedHeads``).
  let changes: ChangeWatcher

  /// Reads, which a pool serves beside the writer.
  public var reader: any DatabaseReader { writer }

  /// The schema versions this program knows, oldest first (`v1`, …).
  public static var schemaVersions: [String] { Migrations.all.map(\.identifier) }

  /// Opens the database file at `path`, creating it and its folder on first use, and brings
  /// its schema up to date.
  ///
  /// Throws, leaving the file as it was, when the file is not a Tally database, when it was
  /// written by a newer Tally (``StoreError/newerSchema(path:version:known:)``), or when a
  /// migration fails (``StoreError/migrationFailed(path:version:target:reason:)``). It never
  /// erases or recreates a file.
  /// `adoptingEmptyFile` lets an existing empty file (0 bytes, or SQLite without a table)
  /// become a new database; without it such a file is refused, since a path that already
  /// exists is more likely a mistake (a typo'd `--db`) than a wish.
  public static func open(at path: String, adoptingEmptyFile: Bool = false) throws(StoreError) -> AppDatabase {
    try open(at: path, migrator: Migrations.migrator(), adoptingEmptyFile: adoptingEmptyFile)
  }

  /// Writes the WAL back into the file, then closes every connection. A program that stops
  /// this way leaves the whole database in the one file (beside an empty `-wal`), so copying
  /// it alone is a complete copy. Nothing may use this database afterwards.
  public func close() throws {
    try changes.close()
    try Self.checkpointAndClose(writer)
  }

  /// SQLite folds the WAL into the file when the last connection closes, but GRDB closes a
  /// pool's writer before its readers, and a read-only connection cannot: so the writer
  /// checkpoints first, and truncates the log it has emptied. When another program is using
  /// the file (a command beside a running server), the checkpoint gives up at once rather
  /// than hold this one's exit for the busy time-out; the log is left for them to fold.
  static func checkpointAndClose(_ writer: any DatabaseWriter) throws {
    try writer.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA busy_timeout = 0")
      do {
        _ = try db.checkpoint(.truncate)
      } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
        return
      }
    }
    try writer.close()
  }

  /// A fresh, empty in-memory database with the same configuration and schema as a file.
  public static func inMemory() throws(StoreError) -> AppDatabase {
    try inMemory(migrator: Migrations.migrator())
  }

  static func inMemory(migrator: DatabaseMigrator) throws(StoreError) -> AppDatabase {
    do {
      let queue = try DatabaseQueue(configuration: configuration())
      try migrator.migrate(queue)
      try SyncBackfill.runIfNeeded(queue)
      return AppDatabase(writer: queue, path: nil, changes: try ChangeWatcher(path: nil, writer: queue))
    } catch {
      throw .storage(String(describing: error))
    }
  }

  static func open(at path: String, migrator: DatabaseMigrator, adoptingEmptyFile: Bool = false)
    throws(StoreError) -> AppDatabase
  {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw .unreadable(
        path: path,
        reason: "its folder \(url.deletingLastPathComponent().path) could not be created "
          + "(\(error.localizedDescription))")
    }
    // A refused file leaves its folder as it was: the log and index files SQLite makes on
    // opening (a damaged file is found damaged only once opened) go again.
    let sidecars = Sidecars(of: path)
    let pool: DatabasePool
    do {
      if FileManager.default.fileExists(atPath: path) {
        try inspect(path: path, migrator: migrator, adoptingEmptyFile: adoptingEmptyFile)
      } else {
        try create(at: path, migrator: migrator)
      }
      pool = try openPool(at: path)
    } catch {
      sidecars.removeNew()
      throw error
    }
    do {
      try migrator.migrate(pool)
      try SyncBackfill.runIfNeeded(pool)
    } catch {
      let version = (try? pool.read { db in try migrator.appliedMigrations(db).last }) ?? nil
      throw .migrationFailed(
        path: path, version: version ?? "none", target: migrator.migrations.last ?? "none",
        reason: reason(error))
    }
    do {
      return AppDatabase(writer: pool, path: path, changes: try ChangeWatcher(path: path, writer: pool))
    } catch {
      throw .unreadable(path: path, reason: reason(error))
    }
  }

  private static func openPool(at path: String) throws(StoreError) -> DatabasePool {
    do {
      let pool = try DatabasePool(path: path, configuration: configuration())
      // GRDB sets NORMAL when it turns WAL on, which survives a crashed process but may lose
      // the last commits to a power cut. FULL also syncs the WAL on every commit. The pool's
      // one writer connection keeps the setting for its whole life. Its page cache may grow to
      // 32 MiB, where SQLite's 2 MiB made a first pull's pages spill to the WAL before their
      // commit (readers keep the default). A write to `habit_entries` runs v13's triggers, so
      // SQLite keeps each such statement's undo pages in a statement journal, which by default
      // is a temporary file written page by page: in memory, an import of 155,000 days made
      // 33,000 writes instead of 1.1 million.
      try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY")
      }
      return pool
    } catch {
      throw .unreadable(path: path, reason: reason(error))
    }
  }

  /// The files SQLite keeps beside a database, and which of them were there before it was
  /// opened.
  private struct Sidecars {
    let files: [String]
    let before: Set<String>

    init(of path: String) {
      files = ["-wal", "-shm", "-journal"].map { path + $0 }
      before = Set(files.filter(FileManager.default.fileExists))
    }

    /// Removes those that opening made; call once every connection is closed.
    func removeNew() {
      for file in files where !before.contains(file) { unlink(file) }
    }
  }

  /// Makes a new database beside `path` under a temporary name, migrates it, and links it
  /// into place only then: a process killed while creating leaves no file (or a stray
  /// temporary one), never an empty file at `path` that the next start would refuse. When
  /// another process made `path` meanwhile, theirs is kept and this one is discarded.
  private static func create(at path: String, migrator: DatabaseMigrator) throws(StoreError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).new-\(UUID().uuidString)").path
    defer {
      for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) }
    }
    do {
      let pool = try DatabasePool(path: temporary, configuration: configuration())
      try migrator.migrate(pool)
      try SyncBackfill.runIfNeeded(pool)
      // The schema must be in the file that is linked into place, not in its log.
      try checkpointAndClose(pool)
    } catch {
      throw .unreadable(path: path, reason: reason(error))
    }
    guard link(temporary, path) == 0 || errno == EEXIST else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// Looks at an existing file through a read-only connection before anything writes to it:
  /// refuses a file that is not Tally's or is newer than this program, and runs pending
  /// migrations on an in-memory copy first so one that fails never touches the file.
  private static func inspect(path: String, migrator: DatabaseMigrator, adoptingEmptyFile: Bool)
    throws(StoreError)
  {
    let known = migrator.migrations
    var readonly = configuration()
    readonly.readonly = true
    do {
      let queue = try DatabaseQueue(path: path, configuration: readonly)
      let (applied, isEmpty) = try queue.read { db in
        (
          try migrator.appliedIdentifiers(db),
          try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") == 0
        )
      }
      if applied.isEmpty && !isEmpty {
        throw StoreError.unreadable(
          path: path, reason: "it is an SQLite database, but not one Tally made")
      }
      if applied.isEmpty && !adoptingEmptyFile {
        throw StoreError.unreadable(
          path: path,
          reason: "the file exists but is empty, not a Tally database; name a new path (Tally creates it), "
            + "or pass --adopt-empty-db to make this file one")
      }
      let unknown = applied.subtracting(known)
      if !unknown.isEmpty {
        throw StoreError.newerSchema(
          path: path, version: newest(unknown), known: known.last ?? "none")
      }
      let current = known.last { applied.contains($0) }
      if let current, current != known.last {
        // A dry run on a copy: the real file is migrated only when this succeeds.
        let copy = try DatabaseQueue(configuration: configuration())
        try queue.backup(to: copy)
        do {
          try migrator.migrate(copy)
        } catch {
          throw StoreError.migrationFailed(
            path: path, version: current, target: known.last ?? "none", reason: reason(error))
        }
      }
      try queue.close()
    } catch let error as StoreError {
      throw error
    } catch {
      throw .unreadable(path: path, reason: reason(error))
    }
  }

  /// The configuration every connection shares, files and memory alike.
  static func configuration() -> Configuration {
    var config = Configuration()
    config.foreignKeysEnabled = true
    // The CLI and the server may share a file: wait for each other rather than fail.
    config.busyMode = .timeout(10)
    return config
  }

  /// The newest of schema identifiers like `v12`, by number when they have one.
  static func newest(_ identifiers: Set<String>) -> String {
    identifiers.max { a, b in
      let (na, nb) = (Int(a.dropFirst()) ?? -1, Int(b.dropFirst()) ?? -1)
      return (na, a) < (nb, b)
    } ?? "none"
  }

  static func reason(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      return error.message ?? error.description
    }
    return String(describing: error)
  }
}
