import Foundation
import TallyCore
import TallyStore

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
    let start = SyncRecordingStamp.tick(
      latest: try storage.latestStamp(), now: now, device: try storage.device(), isReplica: try storage.isReplica())
    try storage.saveLatestStamp(start.stamp)
    self.init(storage, start)
  }

  /// A recorder for what predates sync or is a default rather than an edit: its genesis
  /// stamp loses to any real change, and nothing is queued.
  public init(genesis storage: Storage) throws {
    self.init(storage, .genesis(device: try storage.device()))
  }

  private init(_ storage: Storage, _ start: SyncRecordingStamp) {
    self.storage = storage
    stamp = start.stamp
    queues = start.queues
  }

  /// Records the fields of `key` that differ from what the feed holds, or all of them when
  /// the user has just set them (`restating`).
  public func record(_ key: SyncKey, _ fields: [String: SyncValue], restating: Bool = false) throws {
    try record(SyncRecord(key: key, fields: fields, isSetByUser: restating))
  }

  /// Records a deletion that is final; the children's records go with it.
  public func recordDeletion(_ key: SyncKey) throws {
    try record(SyncRecord(key: key, fields: nil))
  }

  /// Records `record`: its fields, or its deletion (``SyncRecording/merged(_:held:stamp:)``).
  public func record(_ record: SyncRecord) throws {
    let held = try storage.entity(record.key).map { [record.key.id: $0] } ?? [:]
    let (entities, changes) = SyncRecording.merged([record], held: held, stamp: stamp)
    for (key, entity) in entities { try storage.save(entity, key) }
    for (parent, kind) in SyncRecording.orphans(of: changes) { try storage.removeChildren(of: parent, kind: kind) }
    if queues { for change in changes { try storage.enqueue(change) } }
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
