import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// Puts the changes of one write transaction into the user's change feed, all with one new
/// stamp, by the rules every store records with (``SyncRecording``, ``SyncRecord``); only the
/// SQL is here. Positions and the latest stamp come from the user's `sync_heads` row, locked
/// for the rest of the transaction, so two instances never give one position twice and a feed
/// reader never sees a position before the ones below it commit.
///
/// Store writes are async here, so this is not ``SyncFeedRecorder`` over
/// ``PostgresSyncStorage``: that would send every write's statements through a blocking
/// thread for no decision of its own.
struct PostgresSyncRecorder: Sendable {
  let connection: PostgresConnection
  let user: UUID
  let stamp: HybridStamp
  private let queues: Bool
  /// Whether ``stamp`` is a tick of the user's clock, to be stored as its latest.
  private let ticks: Bool

  /// A recorder stamping with the next tick of the user's clock, after locking the user (see
  /// ``PostgresConnection/lockSyncHead(_:)``). The stamp is stored with the first change it
  /// records: a write that records nothing leaves the clock where it was.
  init(_ connection: PostgresConnection, user: UUID, now: Date) async throws {
    self.init(connection, user: user, now: now, head: try await connection.lockSyncHead(user))
  }

  /// A recorder stamping with the next tick after `head`, which the caller has locked in a
  /// statement of its own.
  init(_ connection: PostgresConnection, user: UUID, now: Date, head: SyncHead) {
    stamp = head.nextStamp(now: now)
    self.connection = connection
    self.user = user
    queues = head.isReplica
    ticks = true
  }

  /// A recorder for what is a default rather than an edit: its genesis stamp loses to any
  /// real change, and nothing is queued.
  init(genesisIn connection: PostgresConnection, user: UUID) async throws {
    stamp = HybridStamp.genesis(try await connection.lockSyncHead(user).device)
    self.connection = connection
    self.user = user
    queues = false
    ticks = false
  }

  /// Records `record`'s fields that differ from what the feed holds, or its deletion.
  func record(_ record: SyncRecord) async throws {
    try await self.record([record])
  }

  /// Records of one kind recorded together, as ``record(_:)`` would one by one, in two
  /// statements (the feed's entities read, then written with their positions) whatever
  /// their number: a restore writes thousands of a habit's entries.
  func record(_ records: [SyncRecord]) async throws {
    guard let kind = records.first?.key.kind else { return }
    try await record(records, held: try await connection.syncEntities(kind, ids: records.map(\.key.id), user: user))
  }

  /// ``record(_:)-([SyncRecord])`` when the caller has read what the feed holds of them, by id,
  /// in its own statement (an entity the feed does not hold is missing): one statement fewer.
  func record(_ records: [SyncRecord], held: [String: SyncEntity]) async throws {
    let (entities, changes) = Self.merged(records, held: held, stamp: stamp)
    guard let kind = entities.first?.0.kind else { return }
    try await connection.writeSyncEntities(entities, user: user, latest: ticks ? stamp : nil)
    if queues { try await enqueue(changes) }
    for change in changes where change.deleted {
      for child in SyncRecording.children(of: kind) {
        try await connection.removeSyncChildren(of: SyncKey(kind: kind, id: change.id), kind: child, user: user)
      }
    }
  }

  /// What recording `records` (all of one kind) over the feed's `held` entities with `stamp`
  /// writes: each changed entity once, in the order first changed, and the changes.
  static func merged(_ records: [SyncRecord], held: [String: SyncEntity], stamp: HybridStamp)
    -> (entities: [(SyncKey, SyncEntity)], changes: [SyncChange])
  {
    guard let kind = records.first?.key.kind else { return ([], []) }
    var held = held
    var changed: [String] = []
    var isChanged: Set<String> = []
    var changes: [SyncChange] = []
    for record in records {
      precondition(record.key.kind == kind, "records of one kind are recorded together")
      let key = record.key
      var entity = held[key.id] ?? SyncEntity()
      let change =
        if let fields = record.fields {
          SyncRecording.change(fields, of: key, stamp: stamp, into: &entity, restating: record.isSetByUser)
        } else {
          SyncRecording.deletion(of: key, stamp: stamp, into: &entity)
        }
      guard let change else { continue }
      held[key.id] = entity
      if isChanged.insert(key.id).inserted { changed.append(key.id) }
      changes.append(change)
    }
    return (changed.map { (SyncKey(kind: kind, id: $0), held[$0]!) }, changes)
  }

  /// A habit's entries recorded together (``record(_:)-([SyncRecord])``).
  func entries(_ habit: UUID, _ entries: [HabitEntry]) async throws {
    try await record(entries.map { SyncRecord.entry(habit, $0) })
  }

  private func enqueue(_ changes: [SyncChange]) async throws {
    try await connection.run(
      """
      INSERT INTO sync_outbox (user_id, change)
      SELECT \(user), change
      FROM unnest(\(changes.map(SyncJSONText.change))::text[]) WITH ORDINALITY AS given(change, n) ORDER BY n
      """)
  }
}
