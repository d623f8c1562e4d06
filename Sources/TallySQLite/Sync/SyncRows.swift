import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The sync tables, read and written inside a caller's transaction.
extension Database {
  /// This database's device id.
  func syncDevice() throws -> UUID {
    guard let text = try String.fetchOne(self, sql: "SELECT device_id FROM sync_meta WHERE id = 1"),
      let id = UUID(uuidString: text)
    else { throw StoreError.corrupt("sync_meta has no device id") }
    return id
  }

  func latestStamp() throws -> HybridStamp? {
    try String.fetchOne(self, sql: "SELECT latest_stamp FROM sync_meta WHERE id = 1")
      .flatMap(HybridStamp.init)
  }

  func saveLatestStamp(_ stamp: HybridStamp) throws {
    try execute(sql: "UPDATE sync_meta SET latest_stamp = ? WHERE id = 1", arguments: [stamp.text])
  }

  /// Takes `count` new feed positions for the user at once; returns the first.
  func takeSyncPositions(_ user: String, count: Int) throws -> Int64 {
    let last = try Int64.fetchOne(
      cachedStatement(
        sql: """
          INSERT INTO sync_heads (user_id, position) VALUES (?1, ?2)
          ON CONFLICT (user_id) DO UPDATE SET position = position + ?2
          RETURNING position
          """),
      arguments: [user, count])
    return (last ?? Int64(count)) - Int64(count) + 1
  }

  func syncEntity(_ key: SyncKey, user: UUID) throws -> SyncEntity? {
    guard
      let row = try Row.fetchOne(
        cachedStatement(
          sql: "SELECT fields, stamps, deleted FROM sync_entities WHERE user_id = ? AND kind = ? AND entity_id = ?"),
        arguments: [user.storeText, key.kind.rawValue, key.id])
    else { return nil }
    return try Self.entity(row)
  }

  static func entity(_ row: Row) throws -> SyncEntity {
    let fields = try SyncJSON.fields(row["fields"])
    let deleted: String? = row["deleted"]
    return SyncEntity(
      fields: fields, stamps: try SyncJSON.stamps(row["stamps"], fields: fields.keys),
      deleted: try deleted.map { text in
        guard let stamp = HybridStamp(text) else { throw SyncJSONError(text: text) }
        return stamp
      })
  }

  /// Writes the entity with a new feed position, so pulls after it see it.
  func saveSyncEntity(_ entity: SyncEntity, _ key: SyncKey, user: UUID) throws {
    let userText = user.storeText
    try writeSyncEntity(entity, key, user: userText, position: takeSyncPositions(userText, count: 1))
  }

  func writeSyncEntity(_ entity: SyncEntity, _ key: SyncKey, user: String, position: Int64) throws {
    try writeSyncRow(
      key, fields: SyncJSON.text(entity.fields), stamps: SyncJSON.stampsText(entity.stamps), deleted: entity.deleted?.text,
      user: user, position: position)
  }

  /// A feed row as its columns hold it: `fields` and `stamps` in `SyncJSON`'s form.
  func writeSyncRow(_ key: SyncKey, fields: String, stamps: String, deleted: String?, user: String, position: Int64)
    throws
  {
    try cachedStatement(
      sql: """
        INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
          stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position
        """
    ).execute(arguments: [user, key.kind.rawValue, key.id, fields, stamps, deleted, position])
  }

  /// Forgets the entities of a deleted parent's children: its tombstone stands for them.
  func removeSyncChildren(of parent: SyncKey, kind: SyncKind, user: UUID) throws {
    try execute(
      sql: "DELETE FROM sync_entities WHERE user_id = ? AND kind = ? AND entity_id >= ? AND entity_id < ?",
      arguments: [user.storeText, kind.rawValue, parent.id + "/", parent.id + "0"])
  }

  /// The children of `parent` kept while it was not yet complete: materialised once it is.
  func syncChildren(of parent: SyncKey, kind: SyncKind, user: UUID) throws -> [(SyncKey, SyncEntity)] {
    try Row.fetchAll(
      self,
      sql: """
        SELECT entity_id, fields, stamps, deleted FROM sync_entities
        WHERE user_id = ? AND kind = ? AND entity_id >= ? AND entity_id < ?
        """,
      arguments: [user.storeText, kind.rawValue, parent.id + "/", parent.id + "0"]
    ).map { row in (SyncKey(kind: kind, id: row["entity_id"]), try Self.entity(row)) }
  }

  func isReplica(_ user: UUID) throws -> Bool {
    try Bool.fetchOne(
      self, sql: "SELECT EXISTS (SELECT 1 FROM sync_remotes WHERE user_id = ?)", arguments: [user.storeText])
      ?? false
  }

  func enqueue(_ change: SyncChange, user: UUID) throws {
    try cachedStatement(sql: "INSERT INTO sync_outbox (user_id, change) VALUES (?, ?)")
      .execute(arguments: [user.storeText, SyncOutboxCoding.text(change)])
  }
}

/// A change as the outbox keeps it: the JSON the push sends.
enum SyncOutboxCoding {
  static func text(_ change: SyncChange) -> String { SyncJSONText.change(change) }

  static func change(_ text: String) throws -> SyncChange {
    try JSONDecoder().decode(SyncChange.self, from: Data(text.utf8))
  }
}
