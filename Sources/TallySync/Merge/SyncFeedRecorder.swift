import Foundation
import TallyCore
import TallyStore

/// What recording a write into the feed decides, whatever the store: only fields that differ
/// from the feed get the new stamp, a kind that changes whole is recorded whole, and a
/// deletion is final.
public enum SyncRecording {
  /// The change that sets the fields of `key` differing from `entity`'s, merged into it;
  /// `nil` when nothing differs. A value the user has just set (`restating`) is a change even
  /// where it equals what the feed holds (SPEC 11), so the latest act wins on every replica.
  /// The caller saves the entity.
  public static func change(
    _ fields: [String: SyncValue], of key: SyncKey, stamp: HybridStamp, into entity: inout SyncEntity,
    restating: Bool = false
  ) -> SyncChange? {
    let changed =
      restating ? fields : fields.filter { name, value in entity.fields[name] != value || entity.stamps[name] == nil }
    guard !changed.isEmpty else { return nil }
    let change = SyncChange(
      kind: key.kind, id: key.id, stamp: stamp, fields: key.kind.changesWhole ? fields : changed)
    return entity.merge(change) == .applied ? change : nil
  }

  /// The deletion of `key`, merged into `entity`; `nil` when it was deleted already.
  public static func deletion(of key: SyncKey, stamp: HybridStamp, into entity: inout SyncEntity) -> SyncChange? {
    let change = SyncChange(kind: key.kind, id: key.id, stamp: stamp, deleted: true)
    return entity.merge(change) == .applied ? change : nil
  }

  /// The kinds whose entities go with a deleted entity of `kind`.
  public static func children(of kind: SyncKind) -> [SyncKind] {
    SyncKind.allCases.filter { $0.parent == kind }
  }
}

/// Puts the changes of one write transaction into the user's change feed, all with one new
/// stamp, and into the outbox when the database is a replica. Every store write that changes
/// what sync carries goes through one inside its own transaction, so a change and its record
/// commit together or not at all.
public struct SyncFeedRecorder<Storage: SyncFeedStorage> {
  public let storage: Storage
  public let stamp: HybridStamp
  public let queues: Bool

  /// A recorder stamping with the next tick of this database's clock.
  public init(_ storage: Storage, now: Date) throws {
    stamp = HybridClock.tick(latest: try storage.latestStamp(), now: now, device: try storage.device())
    try storage.saveLatestStamp(stamp)
    self.storage = storage
    queues = try storage.isReplica()
  }

  /// A recorder for what predates sync or is a default rather than an edit: its genesis
  /// stamp loses to any real change, and nothing is queued.
  public init(genesis storage: Storage) throws {
    stamp = HybridStamp.genesis(try storage.device())
    self.storage = storage
    queues = false
  }

  /// Records the fields of `key` that differ from what the feed holds, or all of them when
  /// the user has just set them (`restating`).
  public func record(_ key: SyncKey, _ fields: [String: SyncValue], restating: Bool = false) throws {
    var entity = try storage.entity(key) ?? SyncEntity()
    guard let change = SyncRecording.change(fields, of: key, stamp: stamp, into: &entity, restating: restating)
    else { return }
    try storage.save(entity, key)
    if queues { try storage.enqueue(change) }
  }

  /// Records a deletion that is final; the children's records go with it.
  public func recordDeletion(_ key: SyncKey) throws {
    var entity = try storage.entity(key) ?? SyncEntity()
    guard let change = SyncRecording.deletion(of: key, stamp: stamp, into: &entity) else { return }
    try storage.save(entity, key)
    for child in SyncRecording.children(of: key.kind) {
      try storage.removeChildren(of: key, kind: child)
    }
    if queues { try storage.enqueue(change) }
  }

  /// Records `record`: its fields, or its deletion.
  public func record(_ record: SyncRecord) throws {
    if let fields = record.fields {
      try self.record(record.key, fields, restating: record.isSetByUser)
    } else {
      try recordDeletion(record.key)
    }
  }
}

/// One entity a store write sets or deletes, as the feed records it: each kind's key and
/// fields, in one place for every store.
public struct SyncRecord: Sendable {
  public var key: SyncKey
  /// `nil` for a deletion.
  public var fields: [String: SyncValue]?
  /// A value the user has just set, recorded even when the feed holds it already (SPEC 11:
  /// setting a day to what it holds is still the latest act). Copies in bulk (a restore, the
  /// mirror, an import) record only what differs.
  public var isSetByUser = false

  /// This record as the user's own act.
  public var setByUser: Self {
    var record = self
    record.isSetByUser = true
    return record
  }

  public static func settings(_ settings: UserSettings) throws -> Self {
    Self(key: SyncKey(kind: .settings, id: SyncID.settingsID), fields: try SyncFields.encode(settings, kind: .settings))
  }

  public static func habit(_ habit: Habit) throws -> Self {
    Self(key: SyncKey(kind: .habit, id: habit.id.storeText), fields: try SyncFields.encode(habit, kind: .habit))
  }

  public static func habitDeleted(_ id: UUID) -> Self {
    Self(key: SyncKey(kind: .habit, id: id.storeText), fields: nil)
  }

  public static func entry(_ habit: UUID, _ day: Day, status: EntryStatus?, note: String?, amount: Amount? = nil)
    -> Self
  {
    Self(
      key: SyncKey(kind: .entry, id: SyncID.entry(habit, day)),
      fields: SyncFields.entry(status: status, note: note, amount: amount))
  }

  public static func entry(_ habit: UUID, _ entry: HabitEntry) -> Self {
    .entry(habit, entry.day, status: entry.status, note: entry.note, amount: entry.amount)
  }

  public static func journal(_ day: Day, text: String?) -> Self {
    Self(key: SyncKey(kind: .journal, id: day.description), fields: SyncFields.journal(text: text))
  }

  public static func chat(_ message: ChatMessage) throws -> Self {
    Self(key: SyncKey(kind: .chat, id: message.id.storeText), fields: try SyncFields.encode(message, kind: .chat))
  }

  public static func chatDeleted(_ id: UUID) -> Self {
    Self(key: SyncKey(kind: .chat, id: id.storeText), fields: nil)
  }

  public static func show(_ show: Show) throws -> Self {
    Self(key: SyncKey(kind: .show, id: show.id.storeText), fields: try SyncFields.encode(show, kind: .show))
  }

  public static func showDeleted(_ id: UUID) -> Self {
    Self(key: SyncKey(kind: .show, id: id.storeText), fields: nil)
  }

  public static func episode(_ episode: Episode) throws -> Self {
    Self(
      key: SyncKey(kind: .episode, id: SyncID.episode(episode.showID, episode.season, episode.number)),
      fields: try SyncFields.encode(episode, kind: .episode))
  }

  public static func pause(_ pause: Pause) throws -> Self {
    Self(key: SyncKey(kind: .pause, id: pause.id.storeText), fields: try SyncFields.encode(pause, kind: .pause))
  }

  public static func pauseDeleted(_ id: UUID) -> Self {
    Self(key: SyncKey(kind: .pause, id: id.storeText), fields: nil)
  }

  public static func price(country: String, providerID: Int, _ price: Price?) -> Self {
    Self(
      key: SyncKey(kind: .price, id: SyncID.price(country, providerID)),
      fields: SyncFields.price(amount: price?.amount, currency: price?.currency))
  }
}
