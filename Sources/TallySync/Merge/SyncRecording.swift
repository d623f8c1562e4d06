import Foundation
import TallyCore

/// What recording a write into the feed decides, whatever the store: only fields that differ
/// from the feed get the new stamp, a kind that changes whole is recorded whole, and a
/// deletion is final and takes its children's records with it. The stores keep only the SQL.
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

  /// `record`'s change (its fields, or its deletion), merged into `entity`; `nil` when the
  /// feed holds it already.
  public static func change(_ record: SyncRecord, stamp: HybridStamp, into entity: inout SyncEntity) -> SyncChange? {
    if let fields = record.fields {
      change(fields, of: record.key, stamp: stamp, into: &entity, restating: record.isSetByUser)
    } else {
      deletion(of: record.key, stamp: stamp, into: &entity)
    }
  }

  /// What recording `records` (all of one kind) over the feed's `held` entities (by id; one
  /// the feed does not hold is missing) with `stamp` writes: each changed entity once, in the
  /// order first changed, and the changes, in order.
  public static func merged(_ records: [SyncRecord], held: [String: SyncEntity], stamp: HybridStamp)
    -> (entities: [(SyncKey, SyncEntity)], changes: [SyncChange])
  {
    guard let kind = records.first?.key.kind else { return ([], []) }
    var held = held
    var changed: [String] = []
    var isChanged: Set<String> = []
    var changes: [SyncChange] = []
    for record in records {
      precondition(record.key.kind == kind, "records of one kind are recorded together")
      var entity = held[record.key.id] ?? SyncEntity()
      guard let change = change(record, stamp: stamp, into: &entity) else { continue }
      held[record.key.id] = entity
      if isChanged.insert(record.key.id).inserted { changed.append(record.key.id) }
      changes.append(change)
    }
    return (changed.map { (SyncKey(kind: kind, id: $0), held[$0]!) }, changes)
  }

  /// The kinds whose entities go with a deleted entity of `kind`.
  public static func children(of kind: SyncKind) -> [SyncKind] {
    SyncKind.allCases.filter { $0.parent == kind }
  }

  /// The children's records that `changes`' deletions take with them: each deleted parent
  /// with each kind of child.
  public static func orphans(of changes: [SyncChange]) -> [(parent: SyncKey, kind: SyncKind)] {
    changes.filter(\.deleted).flatMap { change in
      let parent = SyncKey(kind: change.kind, id: change.id)
      return children(of: change.kind).map { (parent, $0) }
    }
  }
}

/// The stamp one write records with, and what the way it was made decides.
public struct SyncRecordingStamp: Sendable {
  public let stamp: HybridStamp
  /// Whether the changes go to the outbox: a replica's edits do, a default never.
  public let queues: Bool
  /// Whether ``stamp`` is a tick of the database's clock, to be stored as its latest.
  public let ticks: Bool

  /// The next tick of the clock after `latest`, for an edit.
  public static func tick(latest: HybridStamp?, now: Date, device: UUID, isReplica: Bool) -> Self {
    Self(stamp: HybridClock.tick(latest: latest, now: now, device: device), queues: isReplica, ticks: true)
  }

  /// The genesis stamp, for what predates sync or is a default rather than an edit: it loses
  /// to any real change, and nothing is queued.
  public static func genesis(device: UUID) -> Self {
    Self(stamp: .genesis(device), queues: false, ticks: false)
  }
}
