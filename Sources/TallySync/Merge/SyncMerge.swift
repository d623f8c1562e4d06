import Foundation
import TallyCore
import TallyStore

/// Merges changes from elsewhere into one user's data, inside the caller's transaction: the
/// feed's entities by SPEC 11's rules, then the tables the rest of Tally reads. Every store
/// merges here, over its ``SyncMergeStorage``; only the SQL differs.
///
/// A server applying a push is `strict`: a child whose parent it never had, an id another
/// account holds, or a new entity missing fields refuses the whole push. A replica applying a
/// pull keeps such children until their parent arrives (a first pull is paged, and a parent
/// changed later sits later in the feed than its children).
public struct SyncMerge<Storage: SyncMergeStorage> {
  public let storage: Storage
  public let strict: Bool
  let now: Date
  public internal(set) var report = SyncPushResponse()
  /// Parents looked up once per merge, not once per entry: a first pull holds thousands of
  /// entries of each habit.
  private let parents = ParentCache()
  /// The batch's entries while they are merged: a first pull is nearly all entries.
  private var entries: Storage.EntryBatch?
  /// The batch's habit changes not applied yet, by habit: a name clash applies the other
  /// habit's own changes first (a rename or a deletion further on may free the name), since a
  /// rename this merge makes is stamped after every change of the batch and would outrank them.
  private var waitingHabits: [UUID: [Int]] = [:]
  private var changes: [SyncChange] = []

  public init(_ storage: Storage, strict: Bool, now: Date) {
    self.storage = storage
    self.strict = strict
    self.now = now
  }

  /// Merges `changes`; `run` is ``SyncEntryRun`` of them when the caller made it, which the
  /// store may write whole when nothing here needs merging with it.
  public mutating func apply(_ changes: [SyncChange], entries run: SyncEntryRun? = nil) throws {
    guard !changes.isEmpty else { return }
    if let latest = SyncMergeRules.latest(after: changes, latest: try storage.latestStamp()) {
      try storage.saveLatestStamp(latest)
    }
    self.changes = changes
    waitingHabits = [:]
    for (index, change) in changes.enumerated() where change.kind == .habit {
      if let habit = UUID(uuidString: change.id) { waitingHabits[habit, default: []].append(index) }
    }
    // Entries come after their parents and before episodes, so they are read and written
    // together: nothing in between reads their feed rows.
    var entriesWritten = false
    for index in SyncMergeRules.ordered(changes) {
      if changes[index].kind == .habit, let habit = UUID(uuidString: changes[index].id) {
        // Already applied, ahead of its turn, by a name clash.
        guard waitingHabits[habit]?.first == index else { continue }
        waitingHabits[habit]?.removeFirst()
      }
      // The kind alone first: a page's entries written whole are skipped without a copy each.
      let isEntry = changes[index].kind == .entry
      if isEntry, entries == nil, !entriesWritten, let run {
        // Parents come first, so the habits of this page are in place by now.
        if let outcome = try storage.writeWhole(run) {
          entriesWritten = true
          report.applied += outcome.applied
          report.unchanged += outcome.unchanged
        }
      }
      if isEntry, entriesWritten { continue }
      if isEntry, entries == nil {
        entries = try storage.readEntries(changes.lazy.filter { $0.kind == .entry }.map(\.id))
      } else if !isEntry {
        try flushEntries()
      }
      try apply(at: index)
    }
    try flushEntries()
  }

  /// The batch's change at `index`; a failure is the batch's refusal, naming that change.
  private mutating func apply(at index: Int) throws {
    do {
      try apply(changes[index])
    } catch {
      throw SyncMergeRules.refusal(for: error, index: index, key: changes[index].key)
    }
  }

  /// Applies the batch's changes to `habit` that have not had their turn yet; whether there
  /// were any.
  mutating func applyWaiting(_ habit: UUID) throws -> Bool {
    guard let waiting = waitingHabits.removeValue(forKey: habit), !waiting.isEmpty else { return false }
    for index in waiting { try apply(at: index) }
    return true
  }

  private mutating func flushEntries() throws {
    if let entries { try storage.write(entries) }
    entries = nil
  }

  private mutating func apply(_ change: SyncChange) throws {
    try SyncBatchRules.checkShape(change)
    let key = change.key
    let id = try SyncID(key)
    if let parent = key.parent {
      let held = try parents.entity(parent) { try storage.entity(parent) }
      if let notice = try SyncMergeRules.parentCheck(key, parent: parent, held: held, strict: strict) {
        report.dropped.append(notice)
        return
      }
    }
    let before = try key.kind == .entry ? entries?.entity(key.id) : storage.entity(key)
    if key.kind == .entry, before == nil {
      // New here: the change is the whole entry (`checkShape` saw both fields), nothing to merge.
      report.applied += 1
      entries?.addNew(change, day: try SyncFields.entry(change.fields))
      return
    }
    if before == nil, strict, try storage.isHeldElsewhere(id) {
      // Ids are global; one another account holds cannot be taken, and the answer says no more.
      throw SyncApplyError(reason: SyncMergeRules.idTaken)
    }
    var after = before ?? SyncEntity()
    switch after.merge(change) {
    case .dropped:
      report.dropped.append(SyncMergeRules.droppedNotice(key))
    case .unchanged:
      report.unchanged += 1
      if case .journal(let day) = id { try keepLosingText(change, day: day, held: after) }
    case .applied:
      report.applied += 1
      try SyncMergeRules.checkComplete(key, before: before, after: after, strict: strict)
      if key.kind == .entry {
        // Its day is written with the batch's.
        entries?.save(after, id: key.id, day: try SyncFields.entry(after.fields))
        return
      }
      try storage.save(after, key)
      if key.kind.hasChildren { parents.forget(key) }
      try materialize(id, key, after, replacing: before)
    }
  }

  /// A journal text that lost to a later one is kept as a revision all the same.
  private func keepLosingText(_ change: SyncChange, day: Day, held: SyncEntity) throws {
    guard case .string(let text)? = change.fields["text"], held.fields["text"] != .string(text),
      let winner = held.stamps["text"]
    else { return }
    try storage.keepJournalRevision(day, text: text, stamp: change.stamp, replacedBy: winner)
  }

  /// Records a change this merge makes itself (a rename), stamped after every stamp it saw and
  /// every change it recorded before: one merge may rename a habit twice (it clashes with each
  /// of two incoming habits), and two names under one stamp would split the replicas for good —
  /// a receiver keeps the first it applies, as an equal stamp is no newer.
  func recordOwn(_ key: SyncKey, _ fields: [String: SyncValue]) throws {
    try SyncFeedRecorder(storage, now: now).record(key, fields)
  }
}

/// What a merge has read of parents' feed state.
///
/// The last parent asked for is answered without hashing its key: a page's entries come
/// habit by habit.
final class ParentCache {
  private var entities: [SyncKey: SyncEntity?] = [:]
  private var lastEntity: (key: SyncKey, entity: SyncEntity?)?

  func entity(_ key: SyncKey, read: () throws -> SyncEntity?) rethrows -> SyncEntity? {
    if let lastEntity, lastEntity.key == key { return lastEntity.entity }
    let entity = try entities[key] ?? read()
    entities[key] = entity
    lastEntity = (key, entity)
    return entity
  }

  /// `key` was written: read it again next time.
  func forget(_ key: SyncKey) {
    entities[key] = nil
    if lastEntity?.key == key { lastEntity = nil }
  }
}
