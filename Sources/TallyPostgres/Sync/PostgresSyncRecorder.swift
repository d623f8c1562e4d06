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
  private let start: SyncRecordingStamp
  var stamp: HybridStamp { start.stamp }

  /// A recorder stamping with the next tick of the user's clock, after locking the user (see
  /// ``PostgresConnection/lockSyncHead(_:)``). The stamp is stored with the first change it
  /// records: a write that records nothing leaves the clock where it was.
  init(_ connection: PostgresConnection, user: UUID, now: Date) async throws {
    self.init(connection, user: user, now: now, head: try await connection.lockSyncHead(user))
  }

  /// A recorder stamping with the next tick after `head`, which the caller has locked in a
  /// statement of its own.
  init(_ connection: PostgresConnection, user: UUID, now: Date, head: SyncHead) {
    self.init(connection, user: user, head.nextStamp(now: now))
  }

  /// A recorder for what is a default rather than an edit: its genesis stamp loses to any
  /// real change, and nothing is queued.
  init(genesisIn connection: PostgresConnection, user: UUID) async throws {
    self.init(connection, user: user, .genesis(device: try await connection.lockSyncHead(user).device))
  }

  private init(_ connection: PostgresConnection, user: UUID, _ start: SyncRecordingStamp) {
    self.connection = connection
    self.user = user
    self.start = start
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
    let (entities, changes) = SyncRecording.merged(records, held: held, stamp: stamp)
    guard !entities.isEmpty else { return }
    try await connection.writeSyncEntities(entities, user: user, latest: start.ticks ? stamp : nil)
    if start.queues { try await enqueue(changes) }
    for (parent, kind) in SyncRecording.orphans(of: changes) {
      try await connection.removeSyncChildren(of: parent, kind: kind, user: user)
    }
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
