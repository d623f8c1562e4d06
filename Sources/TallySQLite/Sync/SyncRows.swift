import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// A marked day as the feed row it stands for.
enum SyncFeedSQL {
  /// A `habit_entries` row as `sync_entities`' columns (`user_id, kind, entity_id, fields,
  /// stamps, deleted, position`): its amount is the number of the unit a change carries.
  static let markedDayColumns = [
    "user_id", "'entry'", "habit_id || '/' || day", markedDayFields, "stamp", "NULL", "position",
  ]

  /// A `habit_entries` row's fields as the JSON object a change carries.
  static let markedDayFields = """
    json_object('amount', CASE WHEN amount % 1000 = 0 THEN amount / 1000 ELSE amount / 1000.0 END, \
    'note', note, 'status', status)
    """
}

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

  /// Up to `limit` (-1: all) of the user's feed rows after `position`, in order, each as
  /// `kind, entity_id, fields, stamps, deleted, position`: the rows of `sync_entities`, and
  /// each marked day from its `habit_entries` row, whose amount is the number of the unit a
  /// change carries. SQLite merges the two runs, each read in order from its index.
  func syncFeed(_ user: UUID, after position: Int64, limit: Int) throws -> [Row] {
    try Row.fetchAll(
      cachedStatement(
        sql: """
          SELECT kind, entity_id, fields, stamps, deleted, position FROM sync_entities
          WHERE user_id = ?1 AND position > ?2
          UNION ALL
          SELECT \(SyncFeedSQL.markedDayColumns.dropFirst().joined(separator: ", "))
          FROM habit_entries WHERE user_id = ?1 AND position > ?2
          ORDER BY position LIMIT ?3
          """),
      arguments: [user.storeText, position, limit])
  }

  /// `syncFeed`'s rows, each led by the change it stands for as a pull's JSON text when its
  /// fields share one stamp and it is not deleted (nearly every one), or null: SQLite joins
  /// the text, so a page of 5,000 is not 30,000 values copied into Swift. A marked day's id
  /// (`HABIT/DAY`, a UUID and a date) needs no escaping; another id is quoted by SQLite.
  func syncFeedText(_ user: UUID, after position: Int64, limit: Int) throws -> RowCursor {
    try Row.fetchCursor(
      cachedStatement(
        sql: """
          SELECT CASE WHEN deleted IS NULL AND length(stamps) = 62 AND stamps NOT LIKE '{%' THEN
              '{"kind":"' || kind || '","id":' || json_quote(entity_id) || ',"stamp":"' || stamps
              || '","fields":' || fields || '}' END,
            kind, entity_id, fields, stamps, deleted, position
          FROM sync_entities WHERE user_id = ?1 AND position > ?2
          UNION ALL
          SELECT '{"kind":"entry","id":"' || habit_id || '/' || day || '","stamp":"' || stamp || '","fields":'
              || \(SyncFeedSQL.markedDayFields) || '}',
            NULL, NULL, NULL, NULL, NULL, position
          FROM habit_entries WHERE user_id = ?1 AND position > ?2
          ORDER BY position LIMIT ?3
          """),
      arguments: [user.storeText, position, limit])
  }

  func syncEntity(_ key: SyncKey, user: UUID) throws -> SyncEntity? {
    if key.kind == .entry, let marked = try markedDayEntity(key.id, user: user) { return marked }
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

  /// The children of `parent` kept while it was not yet complete, with their feed positions:
  /// materialised once it is.
  func syncChildren(of parent: SyncKey, kind: SyncKind, user: UUID) throws
    -> [(key: SyncKey, entity: SyncEntity, position: Int64)]
  {
    try Row.fetchAll(
      self,
      sql: """
        SELECT entity_id, fields, stamps, deleted, position FROM sync_entities
        WHERE user_id = ? AND kind = ? AND entity_id >= ? AND entity_id < ?
        """,
      arguments: [user.storeText, kind.rawValue, parent.id + "/", parent.id + "0"]
    ).map { row in (SyncKey(kind: kind, id: row["entity_id"]), try Self.entity(row), row["position"]) }
  }

  /// Forgets the feed rows of these entries (`HABIT/DAY` ids): their days hold them now.
  func removeSyncEntries(_ ids: [String], user: UUID) throws {
    guard !ids.isEmpty else { return }
    try cachedStatement(
      sql: """
        DELETE FROM sync_entities WHERE user_id = ? AND kind = 'entry'
          AND entity_id IN (SELECT value FROM json_each(?))
        """
    ).execute(arguments: [user.storeText, SyncJSONText.array(ids)])
  }

  /// Whether the feed keeps rows of `habit`'s entries (an id's part before its slash) in
  /// `sync_entities`, and whether any of its days is in `habit_entries`.
  func entryHoldings(of habit: Substring, user: String) throws -> (feed: Bool, days: Bool) {
    let row = try Row.fetchOne(
      cachedStatement(
        sql: """
          SELECT EXISTS (SELECT 1 FROM sync_entities
              WHERE user_id = ?1 AND kind = 'entry' AND entity_id > ?2 || '/' AND entity_id < ?2 || '0'),
            EXISTS (SELECT 1 FROM habit_entries WHERE habit_id = ?2)
          """),
      arguments: [user, String(habit)])
    return (row?[0] ?? false, row?[1] ?? false)
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
