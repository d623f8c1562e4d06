import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// Puts the changes of one write transaction into the user's change feed, all with one new
/// stamp, as SQLite's recorder does: the same merge (``SyncEntity/merge(_:)``) and the same
/// field encodings, only the SQL differs. Positions and the latest stamp come from the user's
/// `sync_heads` row, locked for the rest of the transaction, so two instances never give one
/// position twice and a feed reader never sees a position before the ones below it commit.
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

  /// Records the fields of `key` that differ from what the feed holds.
  func record(_ key: SyncKey, _ fields: [String: SyncValue]) async throws {
    var entity = try await connection.syncEntity(key, user: user) ?? SyncEntity()
    guard let change = merge(fields, of: key, into: &entity) else { return }
    try await save(entity, key, change)
  }

  /// The change that sets the fields differing from `entity`'s, merged into it; `nil` when
  /// nothing differs. The caller saves the entity.
  private func merge(_ fields: [String: SyncValue], of key: SyncKey, into entity: inout SyncEntity) -> SyncChange? {
    let changed = fields.filter { name, value in entity.fields[name] != value || entity.stamps[name] == nil }
    guard !changed.isEmpty else { return nil }
    let change = SyncChange(
      kind: key.kind, id: key.id, stamp: stamp, fields: key.kind.changesWhole ? fields : changed)
    return entity.merge(change) == .applied ? change : nil
  }

  /// A habit's entries recorded together, as ``entry(_:_:)`` would one by one, in
  /// three statements: a restore writes thousands of each habit.
  func entries(_ habit: UUID, _ entries: [HabitEntry]) async throws {
    let habitText = habit.storeText
    let ids = entries.map { SyncID.entry(habitText, $0.day) }
    var held = try await connection.syncEntities(.entry, ids: ids, user: user)
    var changed: [String] = []
    var isChanged: Set<String> = []
    for (id, entry) in zip(ids, entries) {
      var entity = held[id] ?? SyncEntity()
      let key = SyncKey(kind: .entry, id: id)
      let fields = SyncFields.entry(status: entry.status, note: entry.note, amount: entry.amount)
      guard let change = merge(fields, of: key, into: &entity) else { continue }
      held[id] = entity
      if isChanged.insert(id).inserted { changed.append(id) }
      if queues { try await enqueue(change) }
    }
    guard !changed.isEmpty else { return }
    let first = try await connection.takeSyncPositions(user, count: changed.count)
    try await connection.writeSyncEntities(
      changed.map { (SyncKey(kind: .entry, id: $0), held[$0]!) }, user: user, firstPosition: first)
  }

  /// Records a deletion that is final; the children's records go with it.
  func recordDeletion(_ key: SyncKey) async throws {
    var entity = try await connection.syncEntity(key, user: user) ?? SyncEntity()
    let change = SyncChange(kind: key.kind, id: key.id, stamp: stamp, deleted: true)
    guard entity.merge(change) == .applied else { return }
    try await save(entity, key, change)
    for child in SyncKind.allCases where child.parent == key.kind {
      try await connection.removeSyncChildren(of: key, kind: child, user: user)
    }
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

// MARK: - Each kind

extension PostgresSyncRecorder {
  func settings(_ settings: UserSettings) async throws {
    try await record(SyncKey(kind: .settings, id: SyncID.settingsID), SyncFields.encode(settings, kind: .settings))
  }

  func habit(_ habit: Habit) async throws {
    try await record(SyncKey(kind: .habit, id: habit.id.storeText), SyncFields.encode(habit, kind: .habit))
  }

  func habitDeleted(_ id: UUID) async throws {
    try await recordDeletion(SyncKey(kind: .habit, id: id.storeText))
  }

  func entry(_ habit: UUID, _ day: Day, status: EntryStatus?, note: String?, amount: Amount? = nil) async throws {
    try await record(
      SyncKey(kind: .entry, id: SyncID.entry(habit, day)),
      SyncFields.entry(status: status, note: note, amount: amount))
  }

  func entry(_ habit: UUID, _ entry: HabitEntry) async throws {
    try await self.entry(habit, entry.day, status: entry.status, note: entry.note, amount: entry.amount)
  }

  func journal(_ day: Day, text: String?) async throws {
    try await record(SyncKey(kind: .journal, id: day.description), SyncFields.journal(text: text))
  }

  func chat(_ message: ChatMessage) async throws {
    try await record(SyncKey(kind: .chat, id: message.id.storeText), SyncFields.encode(message, kind: .chat))
  }

  func chatDeleted(_ id: UUID) async throws {
    try await recordDeletion(SyncKey(kind: .chat, id: id.storeText))
  }

  func show(_ show: Show) async throws {
    try await record(SyncKey(kind: .show, id: show.id.storeText), SyncFields.encode(show, kind: .show))
  }

  func showDeleted(_ id: UUID) async throws {
    try await recordDeletion(SyncKey(kind: .show, id: id.storeText))
  }

  func episode(_ episode: Episode) async throws {
    try await record(
      SyncKey(kind: .episode, id: SyncID.episode(episode.showID, episode.season, episode.number)),
      SyncFields.encode(episode, kind: .episode))
  }

  func price(country: String, providerID: Int, _ price: Price?) async throws {
    try await record(
      SyncKey(kind: .price, id: SyncID.price(country, providerID)),
      SyncFields.price(amount: price?.amount, currency: price?.currency))
  }
}
