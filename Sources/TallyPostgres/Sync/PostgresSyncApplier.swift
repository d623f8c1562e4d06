import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// Merges changes from elsewhere into one user's data inside the caller's transaction, by
/// the rules SQLite's applier follows (``SyncMergeRules``, ``SyncEntity/merge(_:)``): the
/// feed's entities first, then the tables the rest of Tally reads. `strict` for a server
/// applying a push; a replica applying a pull keeps children until their parent arrives.
struct PostgresSyncApplier {
  let connection: PostgresConnection
  let user: UUID
  let strict: Bool
  let now: Date
  private(set) var report = SyncPushResponse()
  /// Stamps this merge's own changes (renames); made after every incoming stamp was seen.
  private var recorder: PostgresSyncRecorder?
  /// Parents read once per merge; `nil` inside means "read, and not there".
  private var parents: [SyncKey: SyncEntity?] = [:]
  /// The batch's entries, read in one query when the first comes and written in one
  /// statement after the last: entries sort together, after their parents.
  private var entries: [String: SyncEntity]?
  private var changedEntries: [String] = []
  private var isChanged: Set<String> = []

  init(_ connection: PostgresConnection, user: UUID, strict: Bool, now: Date) {
    self.connection = connection
    self.user = user
    self.strict = strict
    self.now = now
  }

  mutating func apply(_ changes: [SyncChange]) async throws {
    guard !changes.isEmpty else { return }
    let latest = try await connection.lockSyncHead(user).latest
    if let newest = SyncMergeRules.latest(after: changes, latest: latest) {
      try await connection.run("UPDATE sync_heads SET latest_stamp = \(newest.text) WHERE user_id = \(user)")
    }
    for index in SyncMergeRules.ordered(changes) {
      let change = changes[index]
      if change.kind == .entry, entries == nil {
        entries = try await connection.syncEntities(
          .entry, ids: changes.filter { $0.kind == .entry }.map(\.id), user: user)
      } else if change.kind != .entry {
        try await flushEntries()
      }
      do {
        try await apply(change)
      } catch {
        throw SyncMergeRules.refusal(for: error, index: index, key: change.key)
      }
    }
    try await flushEntries()
  }

  /// Writes the entries merged so far to the feed, in the order they changed.
  private mutating func flushEntries() async throws {
    defer { (entries, changedEntries, isChanged) = (nil, [], []) }
    guard let entries, !changedEntries.isEmpty else { return }
    let first = try await connection.takeSyncPositions(user, count: changedEntries.count)
    try await connection.writeSyncEntities(
      changedEntries.map { (SyncKey(kind: .entry, id: $0), entries[$0]!) }, user: user, firstPosition: first)
  }

  private mutating func apply(_ change: SyncChange) async throws {
    try SyncBatchRules.checkShape(change)
    let key = change.key
    let id = try SyncID(key)
    if let parent = key.parent {
      let held = try await parentEntity(parent)
      if let notice = try SyncMergeRules.parentCheck(key, parent: parent, held: held, strict: strict) {
        report.dropped.append(notice)
        return
      }
    }
    let before = key.kind == .entry ? entries?[key.id] : try await connection.syncEntity(key, user: user)
    if before == nil, strict { try await checkIDFree(id) }
    var after = before ?? SyncEntity()
    switch after.merge(change) {
    case .dropped:
      report.dropped.append(SyncMergeRules.droppedNotice(key))
    case .unchanged:
      report.unchanged += 1
      if case .journal(let day) = id { try await keepLosingText(change, day: day, held: after) }
    case .applied:
      report.applied += 1
      try SyncMergeRules.checkComplete(key, before: before, after: after, strict: strict)
      if key.kind == .entry {
        entries?[key.id] = after
        if isChanged.insert(key.id).inserted { changedEntries.append(key.id) }
      } else {
        try await connection.saveSyncEntity(after, key, user: user)
      }
      parents[key] = nil
      try await materialize(id, key, after, replacing: before)
    }
  }

  private mutating func parentEntity(_ key: SyncKey) async throws -> SyncEntity? {
    if let held = parents[key] { return held }
    let entity = try await connection.syncEntity(key, user: user)
    parents[key] = .some(entity)
    return entity
  }

  /// Ids are global; one another account holds cannot be taken, and the answer says no more.
  private func checkIDFree(_ id: SyncID) async throws {
    let taken: Bool
    switch id {
    case .habit(let value):
      taken = try await connection.exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(value) AND user_id <> \(user))")
    case .show(let value):
      taken = try await connection.exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(value) AND user_id <> \(user))")
    case .chat(let value):
      taken = try await connection.exists(
        "SELECT EXISTS (SELECT 1 FROM chat_messages WHERE id = \(value) AND user_id <> \(user))")
    default: return
    }
    if taken { throw SyncApplyError(reason: SyncMergeRules.idTaken) }
  }

  /// A journal text that lost to a later one is kept as a revision all the same.
  private func keepLosingText(_ change: SyncChange, day: Day, held: SyncEntity) async throws {
    guard case .string(let text)? = change.fields["text"], held.fields["text"] != .string(text),
      let winner = held.stamps["text"]
    else { return }
    try await connection.keepJournalRevision(user: user, day: day, text: text, stamp: change.stamp, replacedBy: winner)
  }

  mutating func renamer() async throws -> PostgresSyncRecorder {
    if let recorder { return recorder }
    let made = try await PostgresSyncRecorder(connection, user: user, now: now)
    recorder = made
    return made
  }

  mutating func noteRename(_ rename: SyncRename) {
    report.renamed.append(rename)
  }
}

extension PostgresConnection {
  func keepJournalRevision(user: UUID, day: Day, text: String, stamp: HybridStamp, replacedBy: HybridStamp)
    async throws
  {
    try await run(
      """
      INSERT INTO journal_revisions (user_id, day, text, stamp, replaced_by)
      VALUES (\(user), \(day.description), \(text), \(stamp.text), \(replacedBy.text))
      """)
  }
}
