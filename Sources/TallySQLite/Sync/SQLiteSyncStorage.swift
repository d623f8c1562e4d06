import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The sync tables and the user's rows, read and written on GRDB's writer queue inside the
/// caller's transaction: SQL only, for ``SyncMerge`` and ``SyncFeedRecorder``, which decide.
struct SQLiteSyncStorage: SyncMergeStorage {
  let db: Database
  let user: UUID

  func latestStamp() throws -> HybridStamp? { try db.latestStamp() }
  func saveLatestStamp(_ stamp: HybridStamp) throws { try db.saveLatestStamp(stamp) }
  func device() throws -> UUID { try db.syncDevice() }
  func isReplica() throws -> Bool { try db.isReplica(user) }
  func entity(_ key: SyncKey) throws -> SyncEntity? { try db.syncEntity(key, user: user) }
  func save(_ entity: SyncEntity, _ key: SyncKey) throws { try db.saveSyncEntity(entity, key, user: user) }
  func enqueue(_ change: SyncChange) throws { try db.enqueue(change, user: user) }

  func removeChildren(of parent: SyncKey, kind: SyncKind) throws {
    try db.removeSyncChildren(of: parent, kind: kind, user: user)
  }

  func children(of parent: SyncKey, kind: SyncKind) throws -> [(key: SyncKey, entity: SyncEntity, position: Int64)] {
    try db.syncChildren(of: parent, kind: kind, user: user)
  }

  // MARK: Entries

  func readEntries(_ ids: some Sequence<String>) throws -> SyncEntryBatch {
    try SyncEntryBatch(db, user: user, ids: ids)
  }

  func write(_ batch: SyncEntryBatch) throws { try batch.write(db, user: user) }

  func writeWhole(_ run: SyncEntryRun) throws -> (applied: Int, unchanged: Int)? {
    try SyncEntryBatch.writeWhole(run, db, user: user)
  }

  /// A marked day moves to its row, keeping its place in the feed; a cleared one stays in
  /// `sync_entities`, as every cleared day does.
  func placeWaiting(_ entries: [SyncWaitingEntry], of habit: UUID) throws {
    var days = SyncEntryRows()
    var moved: [String] = []
    for entry in entries where entry.day.status != nil {
      days.add(entry.id, entry.day, stamp: entry.stamp, position: entry.position)
      moved.append(entry.id)
    }
    try db.removeSyncEntries(moved, user: user)
    try days.write(db, user: user)
  }

  // MARK: Ids and clashes

  func isHeldElsewhere(_ id: SyncID) throws -> Bool {
    let table: String
    let uuid: UUID
    switch id {
    case .habit(let value): (table, uuid) = ("habits", value)
    case .show(let value): (table, uuid) = ("shows", value)
    case .chat(let value): (table, uuid) = ("chat_messages", value)
    default: return false
    }
    return try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ? AND user_id <> ?)",
      arguments: [uuid.storeText, user.storeText]) ?? false
  }

  private func otherHabits(_ id: UUID) -> QueryInterfaceRequest<HabitRecord> {
    HabitRecord.filter(HabitRecord.Columns.userID == user.storeText).filter(HabitRecord.Columns.id != id.storeText)
  }

  func habit(nameKey: String, other id: UUID) throws -> (id: UUID, name: String)? {
    guard let other = try otherHabits(id).filter(HabitRecord.Columns.nameKey == nameKey).fetchOne(db) else {
      return nil
    }
    return (try Stored.uuid(other.id, "habits.id"), other.name)
  }

  func habitNames(other id: UUID) throws -> [String] {
    try otherHabits(id).fetchAll(db).map(\.name)
  }

  func renameHabit(_ id: UUID, to name: String) throws {
    try db.execute(
      sql: "UPDATE habits SET name = ?, name_key = ? WHERE id = ?",
      arguments: [name, NameKey.comparisonKey(name), id.storeText])
  }

  func show(tmdbID: Int, other id: UUID) throws -> UUID? {
    try String.fetchOne(
      db, sql: "SELECT id FROM shows WHERE user_id = ? AND tmdb_id = ? AND id <> ?",
      arguments: [user.storeText, tmdbID, id.storeText]
    ).map { try Stored.uuid($0, "shows.id") }
  }

  func unlinkShow(_ id: UUID) throws {
    try db.execute(sql: "UPDATE shows SET tmdb_id = NULL WHERE id = ?", arguments: [id.storeText])
  }
}
