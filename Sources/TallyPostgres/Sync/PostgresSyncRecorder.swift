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

  /// A recorder stamping with the next tick of the user's clock.
  init(_ connection: PostgresConnection, user: UUID, now: Date) async throws {
    let head = try await connection.lockSyncHead(user)
    stamp = HybridClock.tick(latest: head.latest, now: now, device: head.device)
    try await connection.run("UPDATE sync_heads SET latest_stamp = \(stamp.text) WHERE user_id = \(user)")
    self.connection = connection
    self.user = user
    queues = head.isReplica
  }

  /// A recorder for what is a default rather than an edit: its genesis stamp loses to any
  /// real change, and nothing is queued.
  init(genesisIn connection: PostgresConnection, user: UUID) async throws {
    stamp = HybridStamp.genesis(try await connection.lockSyncHead(user).device)
    self.connection = connection
    self.user = user
    queues = false
  }

  /// Records `record`'s fields that differ from what the feed holds, or its deletion.
  func record(_ record: SyncRecord) async throws {
    let key = record.key
    var entity = try await connection.syncEntity(key, user: user) ?? SyncEntity()
    guard let fields = record.fields else {
      guard let change = SyncRecording.deletion(of: key, stamp: stamp, into: &entity) else { return }
      try await save(entity, key, change)
      for child in SyncRecording.children(of: key.kind) {
        try await connection.removeSyncChildren(of: key, kind: child, user: user)
      }
      return
    }
    guard
      let change = SyncRecording.change(fields, of: key, stamp: stamp, into: &entity, restating: record.isSetByUser)
    else { return }
    try await save(entity, key, change)
  }

  /// A habit's entries recorded together, as ``record(_:)`` would one by one, in three
  /// statements: a restore writes thousands of each habit.
  func entries(_ habit: UUID, _ entries: [HabitEntry]) async throws {
    let records = entries.map { SyncRecord.entry(habit, $0) }
    var held = try await connection.syncEntities(.entry, ids: records.map(\.key.id), user: user)
    var changed: [String] = []
    var isChanged: Set<String> = []
    for record in records {
      let id = record.key.id
      var entity = held[id] ?? SyncEntity()
      guard let change = SyncRecording.change(record.fields ?? [:], of: record.key, stamp: stamp, into: &entity)
      else { continue }
      held[id] = entity
      if isChanged.insert(id).inserted { changed.append(id) }
      if queues { try await enqueue(change) }
    }
    guard !changed.isEmpty else { return }
    let first = try await connection.takeSyncPositions(user, count: changed.count)
    try await connection.writeSyncEntities(
      changed.map { (SyncKey(kind: .entry, id: $0), held[$0]!) }, user: user, firstPosition: first)
  }

  private func save(_ entity: SyncEntity, _ key: SyncKey, _ change: SyncChange) async throws {
    try await connection.saveSyncEntity(entity, key, user: user)
    if queues { try await enqueue(change) }
  }

  private func enqueue(_ change: SyncChange) async throws {
    try await connection.run(
      "INSERT INTO sync_outbox (user_id, change) VALUES (\(user), \(SyncJSONText.change(change)))")
  }
}
