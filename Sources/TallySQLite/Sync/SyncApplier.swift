import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// Merges changes from elsewhere into one user's data, inside the caller's transaction: the
/// feed's entities by SPEC 11's rules, then the tables the rest of Tally reads.
///
/// A server applying a push is `strict`: a child whose parent it never had, an id another
/// account holds, or a new entity missing fields refuses the whole push. A replica applying a
/// pull keeps such children until their parent arrives (a first pull is paged, and a parent
/// changed later sits later in the feed than its children).
struct SyncApplier {
  let db: Database
  let user: UUID
  let strict: Bool
  let now: Date
  private(set) var report = SyncPushResponse()
  /// Stamps this merge's own changes (renames); made after every incoming stamp was seen.
  private var recorder: SyncRecorder?
  /// Parents looked up once per merge, not once per entry: a first pull holds thousands of
  /// entries of each habit.
  let cache = ParentCache()
  /// The batch's entries while they are merged: a first pull is nearly all entries.
  private var entries: SyncEntryBatch?

  init(_ db: Database, user: UUID, strict: Bool, now: Date) {
    self.db = db
    self.user = user
    self.strict = strict
    self.now = now
  }

  /// Merges `changes`; `run` is ``SyncEntryRun`` of them when the caller made it, which is
  /// written whole when nothing here needs merging with it.
  mutating func apply(_ changes: [SyncChange], entries run: SyncEntryRun? = nil) throws {
    guard !changes.isEmpty else { return }
    if let latest = SyncMergeRules.latest(after: changes, latest: try db.latestStamp()) {
      try db.saveLatestStamp(latest)
    }
    // Entries come after their parents and before episodes, so they are read and written
    // together: nothing in between reads their feed rows.
    var entriesWritten = false
    for index in SyncMergeRules.ordered(changes) {
      // The kind alone first: a page's entries written whole are skipped without a copy each.
      let isEntry = changes[index].kind == .entry
      if isEntry, entries == nil, !entriesWritten, let run {
        // Parents come first, so the habits of this page are in place by now.
        if let outcome = try SyncEntryBatch.writeWhole(run, db, user: user) {
          entriesWritten = true
          report.applied += outcome.applied
          report.unchanged += outcome.unchanged
        }
      }
      if isEntry, entriesWritten { continue }
      let change = changes[index]
      if change.kind == .entry, entries == nil {
        entries = try SyncEntryBatch(db, user: user, ids: changes.lazy.filter { $0.kind == .entry }.map(\.id))
      } else if change.kind != .entry {
        try flushEntries()
      }
      do {
        try apply(change)
      } catch {
        throw SyncMergeRules.refusal(for: error, index: index, key: change.key)
      }
    }
    try flushEntries()
  }

  private mutating func flushEntries() throws {
    try entries?.write(db, user: user)
    entries = nil
  }

  private mutating func apply(_ change: SyncChange) throws {
    try SyncBatchRules.checkShape(change)
    let key = change.key
    let id = try SyncID(key)
    if let parent = key.parent {
      let held = try cache.entity(parent) { try db.syncEntity(parent, user: user) }
      if let notice = try SyncMergeRules.parentCheck(key, parent: parent, held: held, strict: strict) {
        report.dropped.append(notice)
        return
      }
    }
    let before = try key.kind == .entry ? entries?.entity(key.id) : db.syncEntity(key, user: user)
    if key.kind == .entry, before == nil {
      // New here: the change is the whole entry (`checkShape` saw both fields), nothing to merge.
      report.applied += 1
      entries?.addNew(change, day: try SyncFields.entry(change.fields))
      return
    }
    if before == nil, strict { try checkIDFree(id) }
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
      try db.saveSyncEntity(after, key, user: user)
      if key.kind.hasChildren { cache.forget(key) }
      try materialize(id, key, after, replacing: before)
    }
  }

  /// Ids are global; one another account holds cannot be taken, and the answer says no more.
  private func checkIDFree(_ id: SyncID) throws {
    let table: String
    let uuid: UUID
    switch id {
    case .habit(let value): (table, uuid) = ("habits", value)
    case .show(let value): (table, uuid) = ("shows", value)
    case .chat(let value): (table, uuid) = ("chat_messages", value)
    default: return
    }
    let taken = try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ? AND user_id <> ?)",
      arguments: [uuid.storeText, user.storeText]) ?? false
    if taken { throw SyncApplyError(reason: SyncMergeRules.idTaken) }
  }

  /// A journal text that lost to a later one is kept as a revision all the same.
  private func keepLosingText(_ change: SyncChange, day: Day, held: SyncEntity) throws {
    guard case .string(let text)? = change.fields["text"], held.fields["text"] != .string(text),
      let winner = held.stamps["text"]
    else { return }
    try db.keepJournalRevision(user: user, day: day, text: text, stamp: change.stamp, replacedBy: winner)
  }

  mutating func renamer() throws -> SyncRecorder {
    if let recorder { return recorder }
    let made = try SyncRecorder(db, user: user, now: now)
    recorder = made
    return made
  }

  mutating func noteRename(_ rename: SyncRename) {
    report.renamed.append(rename)
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
