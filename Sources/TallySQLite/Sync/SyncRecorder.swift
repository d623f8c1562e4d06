import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// Puts the changes of one write transaction into the user's change feed, all with one new
/// stamp, and into the outbox when this database is a replica. Every store write that changes
/// what sync carries goes through one, inside its own transaction, so a change and its record
/// commit together or not at all.
struct SyncRecorder {
  let db: Database
  let user: UUID
  let stamp: HybridStamp
  private let queues: Bool

  /// A recorder stamping with the next tick of this database's clock.
  init(_ db: Database, user: UUID, now: Date) throws {
    let device = try db.syncDevice()
    stamp = HybridClock.tick(latest: try db.latestStamp(), now: now, device: device)
    try db.saveLatestStamp(stamp)
    self.db = db
    self.user = user
    queues = try db.isReplica(user)
  }

  /// A recorder for what predates sync or is a default rather than an edit: its genesis
  /// stamp loses to any real change, and nothing is queued.
  init(genesisIn db: Database, user: UUID) throws {
    stamp = HybridStamp.genesis(try db.syncDevice())
    self.db = db
    self.user = user
    queues = false
  }

  /// Records the fields of `key` that differ from what the feed holds.
  func record(_ key: SyncKey, _ fields: [String: SyncValue]) throws {
    var entity = try db.syncEntity(key, user: user) ?? SyncEntity()
    guard let change = try merge(fields, of: key, into: &entity) else { return }
    try db.saveSyncEntity(entity, key, user: user)
    if queues { try db.enqueue(change, user: user) }
  }

  /// The change that sets the fields differing from `entity`'s, merged into it; `nil` when
  /// nothing differs. The caller saves the entity.
  private func merge(_ fields: [String: SyncValue], of key: SyncKey, into entity: inout SyncEntity) throws
    -> SyncChange?
  {
    let changed = fields.filter { name, value in entity.fields[name] != value || entity.stamps[name] == nil }
    guard !changed.isEmpty else { return nil }
    let change = SyncChange(
      kind: key.kind, id: key.id, stamp: stamp, fields: key.kind.changesWhole ? fields : changed)
    return entity.merge(change) == .applied ? change : nil
  }

  /// Records a deletion that is final; the children's records go with it.
  func recordDeletion(_ key: SyncKey) throws {
    var entity = try db.syncEntity(key, user: user) ?? SyncEntity()
    let change = SyncChange(kind: key.kind, id: key.id, stamp: stamp, deleted: true)
    guard entity.merge(change) == .applied else { return }
    try db.saveSyncEntity(entity, key, user: user)
    for child in SyncKind.allCases where child.parent == key.kind {
      try db.removeSyncChildren(of: key, kind: child, user: user)
    }
    if queues { try db.enqueue(change, user: user) }
  }
}

// MARK: - Each kind

extension SyncRecorder {
  func settings(_ settings: UserSettings) throws {
    try record(SyncKey(kind: .settings, id: SyncID.settingsID), SyncFields.encode(settings, kind: .settings))
  }

  func habit(_ habit: Habit) throws {
    try record(SyncKey(kind: .habit, id: habit.id.storeText), SyncFields.encode(habit, kind: .habit))
  }

  func habitDeleted(_ id: UUID) throws {
    try recordDeletion(SyncKey(kind: .habit, id: id.storeText))
  }

  func entry(_ habit: UUID, _ day: Day, status: EntryStatus?, note: String?, amount: Amount? = nil) throws {
    try record(
      SyncKey(kind: .entry, id: SyncID.entry(habit, day)),
      SyncFields.entry(status: status, note: note, amount: amount))
  }

  func entry(_ habit: UUID, _ entry: HabitEntry) throws {
    try self.entry(habit, entry.day, status: entry.status, note: entry.note, amount: entry.amount)
  }

  /// A habit's entries recorded together, as ``entry(_:_:status:note:)`` would one by one:
  /// a restore writes thousands of each habit.
  func entries(_ habit: UUID, _ entries: [HabitEntry]) throws {
    let habitText = habit.storeText
    let ids = entries.map { SyncID.entry(habitText, $0.day) }
    var batch = try SyncEntryBatch(db, user: user, ids: ids)
    for (id, entry) in zip(ids, entries) {
      var entity = batch.entity(id) ?? SyncEntity()
      let key = SyncKey(kind: .entry, id: id)
      guard let change = try merge(SyncFields.entry(status: entry.status, note: entry.note, amount: entry.amount), of: key, into: &entity)
      else { continue }
      batch.save(entity, id: id)
      if queues { try db.enqueue(change, user: user) }
    }
    try batch.write(db, user: user)
  }

  func journal(_ day: Day, text: String?) throws {
    try record(SyncKey(kind: .journal, id: day.description), SyncFields.journal(text: text))
  }

  func chat(_ message: ChatMessage) throws {
    try record(SyncKey(kind: .chat, id: message.id.storeText), SyncFields.encode(message, kind: .chat))
  }

  func chatDeleted(_ id: UUID) throws {
    try recordDeletion(SyncKey(kind: .chat, id: id.storeText))
  }

  func show(_ show: Show) throws {
    try record(SyncKey(kind: .show, id: show.id.storeText), SyncFields.encode(show, kind: .show))
  }

  func showDeleted(_ id: UUID) throws {
    try recordDeletion(SyncKey(kind: .show, id: id.storeText))
  }

  func episode(_ episode: Episode) throws {
    try record(
      SyncKey(kind: .episode, id: SyncID.episode(episode.showID, episode.season, episode.number)),
      SyncFields.encode(episode, kind: .episode))
  }

  func price(country: String, providerID: Int, _ price: Price?) throws {
    try record(
      SyncKey(kind: .price, id: SyncID.price(country, providerID)),
      SyncFields.price(amount: price?.amount, currency: price?.currency))
  }
}
