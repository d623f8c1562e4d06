import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// PostgreSQL under ``SyncMerge``, which is synchronous (SQLite's merge runs on GRDB's writer
/// queue and cannot await): the merge runs on a thread of NIO's blocking pool, and each call
/// here waits there for its statements on the transaction's connection. A thread of Swift
/// concurrency's pool never waits: the statements run on the connection's event loop.
struct PostgresSyncStorage: SyncMergeStorage {
  let connection: PostgresConnection
  let user: UUID
  /// The transaction's collector: a task the blocking thread starts inherits no task-local,
  /// and without it the heads the merge moves would reach this instance only by PostgreSQL's
  /// announcement, after the push was answered (a pull right after it could find nothing new).
  let pending: PendingChanges?

  /// Merges `changes` in the caller's transaction, on a thread that may wait.
  static func merge(
    _ changes: [SyncChange], _ connection: PostgresConnection, user: UUID, strict: Bool, now: Date
  ) async throws -> SyncPushResponse {
    let storage = PostgresSyncStorage(connection: connection, user: user, pending: PendingChanges.current)
    return try await NIOThreadPool.singleton.runIfActive {
      var merge = SyncMerge(storage, strict: strict, now: now)
      try merge.apply(changes)
      return merge.report
    }
  }

  /// Waits for `body` on the connection: only ever on the blocking pool's thread.
  func wait<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, UUID) async throws -> T) throws -> T {
    let (connection, user, pending) = (connection, user, pending)
    return try connection.eventLoop.makeFutureWithTask {
      try await PendingChanges.$current.withValue(pending) { try await body(connection, user) }
    }.wait()
  }

  func execute(_ query: PostgresQuery) throws {
    _ = try wait { connection, _ in try await connection.run(query) }
  }

  func exists(_ query: PostgresQuery) throws -> Bool {
    try wait { connection, _ in try await connection.exists(query) }
  }

  func latestStamp() throws -> HybridStamp? { try wait { try await $0.lockSyncHead($1).latest } }
  func device() throws -> UUID { try wait { connection, _ in try await connection.syncDevice() } }
  func isReplica() throws -> Bool { try exists("SELECT EXISTS (SELECT 1 FROM sync_remotes WHERE user_id = \(user))") }
  func entity(_ key: SyncKey) throws -> SyncEntity? { try wait { try await $0.syncEntity(key, user: $1) } }
  func save(_ entity: SyncEntity, _ key: SyncKey) throws {
    try wait { try await $0.writeSyncEntities([(key, entity)], user: $1, latest: nil) }
  }

  func saveLatestStamp(_ stamp: HybridStamp) throws {
    try execute("UPDATE sync_heads SET latest_stamp = \(stamp.text) WHERE user_id = \(user)")
  }

  func removeChildren(of parent: SyncKey, kind: SyncKind) throws {
    try wait { try await $0.removeSyncChildren(of: parent, kind: kind, user: $1) }
  }

  func enqueue(_ change: SyncChange) throws {
    try execute("INSERT INTO sync_outbox (user_id, change) VALUES (\(user), \(SyncJSONText.change(change)))")
  }

  func children(of parent: SyncKey, kind: SyncKind) throws -> [(key: SyncKey, entity: SyncEntity, position: Int64)] {
    try wait { try await $0.syncChildren(of: parent, kind: kind, user: $1) }
  }

  // MARK: Entries: the feed's rows, and each marked day a row of `habit_entries`

  func readEntries(_ ids: some Sequence<String>) throws -> PostgresSyncEntries {
    let ids = Array(ids)
    return PostgresSyncEntries(held: try wait { try await $0.syncEntities(.entry, ids: ids, user: $1) })
  }

  func write(_ batch: PostgresSyncEntries) throws {
    let changed = batch.changed
    guard !changed.isEmpty else { return }
    try wait { connection, user in
      try await connection.writeSyncEntities(
        changed.map { (SyncKey(kind: .entry, id: $0.id), $0.entity) }, user: user, latest: nil)
      for item in changed { try await connection.writeDay(item.id, item.day, user: user) }
    }
  }

  /// Merges change by change: a whole run is a shortcut for a replica's own file.
  func writeWhole(_ run: SyncEntryRun) throws -> (applied: Int, unchanged: Int)? { nil }

  func placeWaiting(_ entries: [SyncWaitingEntry], of habit: UUID) throws {
    try wait { connection, user in
      for entry in entries { try await connection.writeDay(entry.id, entry.day, user: user) }
    }
  }

  // MARK: Ids and clashes

  func isHeldElsewhere(_ id: SyncID) throws -> Bool {
    switch id {
    case .habit(let value):
      return try exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(value) AND user_id <> \(user))")
    case .show(let value):
      return try exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(value) AND user_id <> \(user))")
    case .chat(let value):
      return try exists("SELECT EXISTS (SELECT 1 FROM chat_messages WHERE id = \(value) AND user_id <> \(user))")
    default:
      return false
    }
  }

  func habit(nameKey: String, other id: UUID) throws -> (id: UUID, name: String)? {
    let found = try wait { connection, user in
      try await connection.rows(
        "SELECT id, name FROM habits WHERE user_id = \(user) AND name_key = \(nameKey) AND id <> \(id)"
      ).first.map { (try $0["id"].decode(UUID.self), try $0["name"].decode(String.self)) }
    }
    return found.map { (id: $0.0, name: $0.1) }
  }

  func habitNames(other id: UUID) throws -> [String] {
    try wait { connection, user in
      try await connection.values("SELECT name FROM habits WHERE user_id = \(user) AND id <> \(id)", as: String.self)
    }
  }

  func renameHabit(_ id: UUID, to name: String) throws {
    try execute("UPDATE habits SET name = \(name), name_key = \(NameKey.comparisonKey(name)) WHERE id = \(id)")
  }

  func show(tmdbID: Int, other id: UUID) throws -> UUID? {
    try wait { connection, user in
      try await connection.values(
        "SELECT id FROM shows WHERE user_id = \(user) AND tmdb_id = \(tmdbID) AND id <> \(id)", as: UUID.self
      ).first
    }
  }

  func unlinkShow(_ id: UUID) throws {
    try execute("UPDATE shows SET tmdb_id = NULL WHERE id = \(id)")
  }
}

/// A batch's entries: what the feed held of them, and those the batch changed, in the order
/// they first changed.
struct PostgresSyncEntries: SyncEntryBatchState {
  let held: [String: SyncEntity]
  private(set) var changed: [(id: String, entity: SyncEntity, day: HabitEntryValue)] = []
  private var place: [String: Int] = [:]

  init(held: [String: SyncEntity]) {
    self.held = held
  }

  func entity(_ id: String) -> SyncEntity? {
    place[id].map { changed[$0].entity } ?? held[id]
  }

  mutating func save(_ entity: SyncEntity, id: String, day: HabitEntryValue) {
    if let index = place[id] {
      changed[index] = (id, entity, day)
    } else {
      place[id] = changed.count
      changed.append((id, entity, day))
    }
  }

  mutating func addNew(_ change: SyncChange, day: HabitEntryValue) {
    save(SyncEntity(fields: change.fields, stamps: change.fields.mapValues { _ in change.stamp }), id: change.id, day: day)
  }
}
