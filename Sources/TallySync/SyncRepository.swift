import Foundation
import TallyCore
import TallyStore

/// A page of an account's change feed, as a store reads it.
public struct SyncChangePage: Hashable, Sendable {
  public var changes: [SyncChange]
  /// The feed position of the last entity read; the next page starts after it.
  public var position: Int64
  public var more: Bool

  public init(changes: [SyncChange], position: Int64, more: Bool) {
    self.changes = changes
    self.position = position
    self.more = more
  }
}

/// The server an account on this database is a replica of.
public struct SyncRemote: Hashable, Sendable {
  public var url: String
  public var token: String
  /// The last cursor taken in; nil before the first pull.
  public var cursor: String?
  public var lastSync: Date?
  public var lastError: String?

  public init(url: String, token: String, cursor: String? = nil, lastSync: Date? = nil, lastError: String? = nil) {
    self.url = url
    self.token = token
    self.cursor = cursor
    self.lastSync = lastSync
    self.lastError = lastError
  }
}

/// A local change waiting to be pushed; `id` orders the outbox.
public struct SyncOutboxItem: Hashable, Sendable {
  public var id: Int64
  public var change: SyncChange

  public init(id: Int64, change: SyncChange) {
    self.id = id
    self.change = change
  }
}

/// What a store does for sync (docs/sync.md). Every write a store makes through its other
/// repositories is stamped and enters the change feed in the same transaction; on a replica
/// it also enters the outbox. The server's side is ``syncChanges`` and ``applyPush``; a
/// replica's is the rest.
public protocol SyncRepository: Sendable {
  /// This database's device id: the device of every stamp it makes.
  func syncDevice() async throws -> UUID

  /// The user's entities changed after feed position `after`, oldest change first, at most
  /// `limit` entities (each may be several changes: one per stamp its fields carry).
  func syncChanges(for user: UUID, after position: Int64, limit: Int) async throws -> SyncChangePage

  /// The user's latest feed position: every change at or below it is committed, so a reader
  /// that read the user's data after asking missed nothing at or below it. 0 before any change.
  func syncHead(for user: UUID) async throws -> Int64

  /// The same page as the JSON of a pull's answer, its cursor naming this database. A store
  /// may write it from its rows without building changes (a first pull is a few hundred pages).
  func syncPullText(for user: UUID, after position: Int64, limit: Int) async throws -> String

  /// Merges a device's batch into the user's data, all or nothing: refused whole with
  /// ``SyncRefusal`` when one change breaks a rule. Applying the same batch again changes
  /// nothing. `now` is the server's clock, for the stamp and day limits.
  func applyPush(_ request: SyncPushRequest, for user: UUID, now: Date, limits: SyncLimits)
    async throws -> SyncPushResponse

  /// The server this user's data is a replica of, if any.
  func syncRemote(for user: UUID) async throws -> SyncRemote?

  /// Makes the user's data a replica of `remote`: every entity the user has, except the
  /// settings (the server's win on attaching), is queued to be pushed. Returns how many.
  func attachRemote(_ remote: SyncRemote, for user: UUID) async throws -> Int

  /// Stops syncing: forgets the remote, its cursor and the outbox.
  func detachRemote(for user: UUID) async throws

  /// The oldest waiting local changes, at most `limit`.
  func outbox(for user: UUID, limit: Int) async throws -> [SyncOutboxItem]

  func outboxCount(for user: UUID) async throws -> Int

  /// Removes the outbox's items up to and including `id`: the server has them.
  func removeFromOutbox(through id: Int64, for user: UUID) async throws

  /// Merges a page pulled from the remote and keeps its cursor, in one transaction, so a
  /// replica killed half-way resumes where it stopped. `entries` is ``SyncEntryRun`` of the
  /// page's changes, made beside the merge of the page before; a store may write from it.
  func applyPulled(_ page: SyncPullResponse, entries: SyncEntryRun?, for user: UUID) async throws
    -> SyncPushResponse

  /// The texts merges replaced on `day`, oldest first (SPEC 11: never lost).
  func journalRevisions(on day: Day, for user: UUID) async throws -> [JournalRevision]

  /// Notes when the last sync ended and its error, for `tally sync --status`.
  func recordSyncOutcome(at instant: Date, error: String?, for user: UUID) async throws
}

/// A journal text another replaced when replicas met: the text, the stamp that wrote it and
/// the stamp of the text that won.
public struct JournalRevision: Hashable, Sendable, Codable {
  public var day: Day
  public var text: String
  public var stamp: HybridStamp
  public var replacedBy: HybridStamp

  public init(day: Day, text: String, stamp: HybridStamp, replacedBy: HybridStamp) {
    self.day = day
    self.text = text
    self.stamp = stamp
    self.replacedBy = replacedBy
  }
}

/// A store that also syncs: what the server and the CLI hold.
public typealias SyncingStore = Store & SyncRepository

extension SyncRepository {
  public func syncPullText(for user: UUID, after position: Int64, limit: Int) async throws -> String {
    let page = try await syncChanges(for: user, after: position, limit: limit)
    let cursor = SyncCursor(position: page.position, user: user, server: try await syncDevice())
    return SyncJSONText.pull(SyncPullResponse(changes: page.changes, cursor: cursor.description, more: page.more))
  }
}

extension SyncRepository {
  /// Merges `page`, its entries written out here first.
  public func applyPulled(_ page: SyncPullResponse, for user: UUID) async throws -> SyncPushResponse {
    try await applyPulled(page, entries: SyncEntryRun(page.changes), for: user)
  }
}
