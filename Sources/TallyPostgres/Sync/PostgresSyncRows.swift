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

  /// The head as `tally_lock_user` answers it.
  init(latest: String?, device: UUID?, isReplica: Bool) throws {
    guard let device else { throw StoreError.corrupt("sync_meta has no device id") }
    self.latest = latest.flatMap(HybridStamp.init)
    self.device = device
    self.isReplica = isReplica
  }

  /// The head as a row of ``PostgresKeptStatements/markColumns`` has it.
  init(markRow row: PostgresRandomAccessRow) throws {
    try self.init(
      latest: try row["head_stamp"].decode(String?.self), device: try row["head_device"].decode(UUID?.self),
      isReplica: try row["head_replica"].decode(Bool.self))
  }

  /// The stamp a write after this head records with: the next tick of the user's clock.
  func nextStamp(now: Date) -> SyncRecordingStamp {
    .tick(latest: latest, now: now, device: device, isReplica: isReplica)
  }
}

/// The sync tables, read and written inside a caller's transaction.
extension PostgresConnection {
  func syncDevice() async throws -> UUID {
    guard let id = try await values("SELECT device_id FROM sync_meta WHERE id = 1", as: UUID.self).first else {
      throw StoreError.corrupt("sync_meta has no device id")
    }
    return id
  }

  /// Locks the user's row and then their head row (made if missing) until the transaction
  /// ends, in one round trip with what a write reads before it stamps: every write for a user
  /// starts here, so their writes take turns on every instance, while foreign keys to the
  /// user's row stay free. Throws ``StoreError/notFound(_:)`` for a user who does not exist.
  func lockSyncHead(_ user: UUID) async throws -> SyncHead {
    guard let (latest, device, isReplica) = try await kept(PostgresKeptStatements.LockSyncHead(user: user)).first else {
      throw StoreError.notFound(.user(user))
    }
    return try SyncHead(latest: latest, device: device, isReplica: isReplica)
  }

  func syncEntity(_ key: SyncKey, user: UUID) async throws -> SyncEntity? {
    let rows = try await rows(
      """
      SELECT fields, stamps, deleted FROM sync_entities
      WHERE user_id = \(user) AND kind = \(key.kind.rawValue) AND entity_id = \(key.id)
      """)
    return try rows.first.map { try Self.syncEntity($0) }
  }

  /// The entity in `row`'s columns `fields`, `stamps` and `deleted`, each after `prefix`.
  static func syncEntity(_ row: PostgresRandomAccessRow, prefix: String = "") throws -> SyncEntity {
    let fields = try SyncJSON.fields(try row[prefix + "fields"].decode(String.self))
    let deleted = try row[prefix + "deleted"].decode(String?.self)
    return SyncEntity(
      fields: fields, stamps: try SyncJSON.stamps(try row[prefix + "stamps"].decode(String.self), fields: fields.keys),
      deleted: try deleted.map { text in
        guard let stamp = HybridStamp(text) else { throw SyncJSONError(text: text) }
        return stamp
      })
  }

  /// The feed's state of the entities `ids` names, in one query. A join, not `= ANY`: a table
  /// without statistics yet (a fresh copy) then has `= ANY` planned as a filter over every
  /// entity of the kind, not as keys of the index.
  func syncEntities(_ kind: SyncKind, ids: [String], user: UUID) async throws -> [String: SyncEntity] {
    var result: [String: SyncEntity] = [:]
    for row in try await rows(
      """
      SELECT entity_id, fields, stamps, deleted FROM unnest(\(ids)::text[]) AS wanted(id)
      JOIN sync_entities ON user_id = \(user) AND kind = \(kind.rawValue) AND entity_id = wanted.id
      """)
    {
      result[try row["entity_id"].decode(String.self)] = try Self.syncEntity(row)
    }
    return result
  }

  /// Writes entities with new feed positions, in order, so pulls after them see them, and
  /// stores `latest` as the user's latest stamp when given; one statement. The new head goes
  /// to the transaction's ``PendingChanges``, which announces it once the transaction has
  /// committed (``CommitAnnouncements``): a write outside ``PostgresAppDatabase``'s
  /// transactions would go unheard.
  func writeSyncEntities(_ entities: [(SyncKey, SyncEntity)], user: UUID, latest: HybridStamp?) async throws {
    assert(PendingChanges.current != nil, "feed positions are taken only in a transaction that announces them")
    let statement = PostgresKeptStatements.WriteSyncEntities(
      user: user, latest: latest?.text, kinds: entities.map(\.0.kind.rawValue), ids: entities.map(\.0.id),
      fields: entities.map { SyncJSON.text($0.1.fields) }, stamps: entities.map { SyncJSON.stampsText($0.1.stamps) },
      deleted: entities.map { $0.1.deleted?.text ?? "" })
    let last = try await kept(statement).first
    guard let last else { throw StoreError.corrupt("the user \(user.storeText) has no sync head") }
    PendingChanges.current?.record(user, last)
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
