import Foundation
import PostgresNIO
import TallyStore
import TallySync

/// What a write reads of the user's feed before it stamps: the latest stamp, this database's
/// device, and whether the user's data is a replica (its changes then queue to be pushed).
struct SyncHead {
  var latest: HybridStamp?
  var device: UUID
  var isReplica: Bool
}

/// The sync tables, read and written inside a caller's transaction.
extension PostgresConnection {
  func syncDevice() async throws -> UUID {
    guard let id = try await values("SELECT device_id FROM sync_meta WHERE id = 1", as: UUID.self).first else {
      throw StoreError.corrupt("sync_meta has no device id")
    }
    return id
  }

  /// Makes the user's head row if it is missing and locks it until the transaction ends, in one
  /// round trip with what a write reads before it stamps (every write starts here).
  func lockSyncHead(_ user: UUID) async throws -> SyncHead {
    // Setting a column to itself takes the row's lock, as FOR UPDATE would, and returns it.
    let rows = try await rows(
      """
      INSERT INTO sync_heads (user_id, position) VALUES (\(user), 0)
      ON CONFLICT (user_id) DO UPDATE SET position = sync_heads.position
      RETURNING latest_stamp, (SELECT device_id FROM sync_meta WHERE id = 1) AS device,
        EXISTS (SELECT 1 FROM sync_remotes WHERE user_id = \(user)) AS replica
      """)
    guard let row = rows.first, let device = try row["device"].decode(UUID?.self) else {
      throw StoreError.corrupt("sync_meta has no device id")
    }
    return SyncHead(
      latest: try row["latest_stamp"].decode(String?.self).flatMap(HybridStamp.init), device: device,
      isReplica: try row["replica"].decode(Bool.self))
  }

  /// Takes `count` new feed positions for the user at once; returns the first. The new head
  /// is announced to every instance when the transaction commits (``PostgresFeedAnnouncements``).
  func takeSyncPositions(_ user: UUID, count: Int) async throws -> Int64 {
    let last = try await values(
      """
      WITH moved AS (
        UPDATE sync_heads SET position = position + \(count) WHERE user_id = \(user) RETURNING position)
      SELECT position FROM moved,
        pg_notify(\(PostgresFeedAnnouncements.channel), \(user.storeText) || ' ' || position)
      """,
      as: Int64.self
    ).first
    guard let last else { throw StoreError.corrupt("the user \(user.storeText) has no sync head") }
    PendingChanges.current?.record(user, last)
    return last - Int64(count) + 1
  }

  func syncEntity(_ key: SyncKey, user: UUID) async throws -> SyncEntity? {
    let rows = try await rows(
      """
      SELECT fields, stamps, deleted FROM sync_entities
      WHERE user_id = \(user) AND kind = \(key.kind.rawValue) AND entity_id = \(key.id)
      """)
    return try rows.first.map(Self.syncEntity)
  }

  static func syncEntity(_ row: PostgresRandomAccessRow) throws -> SyncEntity {
    let fields = try SyncJSON.fields(try row["fields"].decode(String.self))
    let deleted = try row["deleted"].decode(String?.self)
    return SyncEntity(
      fields: fields, stamps: try SyncJSON.stamps(try row["stamps"].decode(String.self), fields: fields.keys),
      deleted: try deleted.map { text in
        guard let stamp = HybridStamp(text) else { throw SyncJSONError(text: text) }
        return stamp
      })
  }

  /// Writes the entity with a new feed position, so pulls after it see it.
  func saveSyncEntity(_ entity: SyncEntity, _ key: SyncKey, user: UUID) async throws {
    try await writeSyncEntity(entity, key, user: user, position: try await takeSyncPositions(user, count: 1))
  }

  func writeSyncEntity(_ entity: SyncEntity, _ key: SyncKey, user: UUID, position: Int64) async throws {
    try await run(
      """
      INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
      VALUES (\(user), \(key.kind.rawValue), \(key.id), \(SyncJSON.text(entity.fields)),
        \(SyncJSON.stampsText(entity.stamps)), \(entity.deleted?.text), \(position))
      ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
        stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position
      """)
  }

  /// The feed's state of the entities `ids` names, in one query.
  func syncEntities(_ kind: SyncKind, ids: [String], user: UUID) async throws -> [String: SyncEntity] {
    var result: [String: SyncEntity] = [:]
    for row in try await rows(
      """
      SELECT entity_id, fields, stamps, deleted FROM sync_entities
      WHERE user_id = \(user) AND kind = \(kind.rawValue) AND entity_id = ANY(\(ids)::text[])
      """)
    {
      result[try row["entity_id"].decode(String.self)] = try Self.syncEntity(row)
    }
    return result
  }

  /// Writes entities in one statement, with positions from `firstPosition` on, in order.
  func writeSyncEntities(_ entities: [(SyncKey, SyncEntity)], user: UUID, firstPosition: Int64) async throws {
    try await run(
      """
      INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
      SELECT \(user), kind, entity_id, fields, stamps, NULLIF(deleted, ''), position
      FROM unnest(\(entities.map(\.0.kind.rawValue))::text[], \(entities.map(\.0.id))::text[],
        \(entities.map { SyncJSON.text($0.1.fields) })::text[], \(entities.map { SyncJSON.stampsText($0.1.stamps) })::text[],
        \(entities.map { $0.1.deleted?.text ?? "" })::text[], \(entities.indices.map { firstPosition + Int64($0) })::bigint[])
        AS given(kind, entity_id, fields, stamps, deleted, position)
      ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
        stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position
      """)
  }

  /// Forgets the entities of a deleted parent's children: its tombstone stands for them.
  func removeSyncChildren(of parent: SyncKey, kind: SyncKind, user: UUID) async throws {
    try await run(
      """
      DELETE FROM sync_entities WHERE user_id = \(user) AND kind = \(kind.rawValue)
      AND entity_id >= \(parent.id + "/") AND entity_id < \(parent.id + "0")
      """)
  }

  /// The children of `parent` kept while it was not yet complete, with their feed positions:
  /// materialised once it is.
  func syncChildren(of parent: SyncKey, kind: SyncKind, user: UUID) async throws
    -> [(key: SyncKey, entity: SyncEntity, position: Int64)]
  {
    try await rows(
      """
      SELECT entity_id, fields, stamps, deleted, position FROM sync_entities WHERE user_id = \(user)
      AND kind = \(kind.rawValue) AND entity_id >= \(parent.id + "/") AND entity_id < \(parent.id + "0")
      """
    ).map { row in
      (SyncKey(kind: kind, id: try row["entity_id"].decode(String.self)), try Self.syncEntity(row),
        try row["position"].decode(Int64.self))
    }
  }
}
