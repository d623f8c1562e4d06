import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Sync: the server's feed and merge, a replica's remote and outbox (docs/sync.md)

extension SQLiteStore: SyncRepository {
  public func syncDevice() async throws -> UUID {
    try await read { db in try db.syncDevice() }
  }

  public func syncChanges(for user: UUID, after position: Int64, limit: Int) async throws -> SyncChangePage {
    try await read { db in
      let rows = try Self.feedRows(db, user: user, after: position, limit: limit)
      var changes: [SyncChange] = []
      changes.reserveCapacity(min(rows.count, limit))
      for row in rows.prefix(limit) {
        changes += try Self.changes(row)
      }
      let last = rows.prefix(limit).last.map { $0["position"] as Int64 } ?? position
      return SyncChangePage(changes: changes, position: last, more: rows.count > limit)
    }
  }

  public func syncHead(for user: UUID) async throws -> Int64 {
    try await read { db in
      try Int64.fetchOne(
        db.cachedStatement(sql: "SELECT position FROM sync_heads WHERE user_id = ?"), arguments: [user.storeText]) ?? 0
    }
  }

  /// An entity whose fields share one stamp (nearly every one) comes from SQLite as the
  /// change's text (`syncFeedText`); any other is read and written out here.
  public func syncPullText(for user: UUID, after position: Int64, limit: Int) async throws -> String {
    try await readAside { db in
      try db.requireUser(user)
      let rows = try db.syncFeedText(user, after: position, limit: limit + 1)
      var out = SyncJSONText.pageOpening
      var count = 0
      var last = position
      var more = false
      while let row = try rows.next() {
        guard count < limit else {
          more = true
          break
        }
        if count > 0 { out += "," }
        // The change's text, else `syncFeed`'s columns by name; the position is the last.
        if let change = row[0] as String? {
          out += change
        } else {
          out += try Self.changes(row).map(SyncJSONText.change).joined(separator: ",")
        }
        last = row[6]
        count += 1
      }
      let cursor = SyncCursor(position: last, user: user, server: try db.syncDevice())
      SyncJSONText.closePage(&out, cursor: cursor.description, more: more)
      return out
    }
  }

  /// Up to `limit` + 1 of the user's feed rows after `position`: one more says more follow.
  private static func feedRows(_ db: Database, user: UUID, after position: Int64, limit: Int) throws -> [Row] {
    try db.requireUser(user)
    return try db.syncFeed(user, after: position, limit: limit + 1)
  }

  private static func kind(_ row: Row) throws -> SyncKind {
    let text: String = row["kind"]
    guard let kind = SyncKind(rawValue: text) else {
      throw StoreError.corrupt("sync_entities.kind '\(text)' is not a kind")
    }
    return kind
  }

  private static func changes(_ row: Row) throws -> [SyncChange] {
    try Database.entity(row).changes(kind: kind(row), id: row["entity_id"])
  }

  public func applyPush(_ request: SyncPushRequest, for user: UUID, now: Date, limits: SyncLimits)
    async throws -> SyncPushResponse
  {
    try await write { db in
      guard let record = try UserRecord.fetchOne(db, key: user.storeText) else {
        throw StoreError.notFound(.user(user))
      }
      let settings = try record.user().settings
      let calendar = try Stored.valid("users.settings") { () throws(ValidationError) in
        try settings.dayCalendar()
      }
      try SyncBatchRules.check(
        request, server: try db.syncDevice(), now: now, calendar: calendar, limits: limits)
      var merge = SyncMerge(SQLiteSyncStorage(db: db, user: user), strict: true, now: now)
      try merge.apply(request.changes)
      return merge.report
    }
  }

  public func syncRemote(for user: UUID) async throws -> SyncRemote? {
    try await read { db in
      try Row.fetchOne(
        db, sql: "SELECT url, token, cursor, last_sync_at, last_error FROM sync_remotes WHERE user_id = ?",
        arguments: [user.storeText]
      ).map { row in
        SyncRemote(
          url: row["url"], token: row["token"], cursor: row["cursor"],
          lastSync: (row["last_sync_at"] as String?).flatMap(InstantText.date), lastError: row["last_error"])
      }
    }
  }

  public func attachRemote(_ remote: SyncRemote, for user: UUID) async throws -> Int {
    try await write { db in
      try db.requireUser(user)
      guard try !db.isReplica(user) else {
        throw StoreError.conflict("this database already syncs with a server; remove it first")
      }
      try db.execute(
        sql: "INSERT INTO sync_remotes (user_id, url, token) VALUES (?, ?, ?)",
        arguments: [user.storeText, remote.url, remote.token])
      // The server's settings win on attaching: whatever it has is taken on the first pull.
      try db.execute(
        sql: "DELETE FROM sync_entities WHERE user_id = ? AND kind = 'settings'", arguments: [user.storeText])
      for row in try db.syncFeed(user, after: 0, limit: -1) {
        guard let kind = SyncKind(rawValue: row["kind"]) else { continue }
        for change in try Database.entity(row).changes(kind: kind, id: row["entity_id"]) {
          try db.enqueue(change, user: user)
        }
      }
      return try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox WHERE user_id = ?", arguments: [user.storeText]) ?? 0
    }
  }

  public func detachRemote(for user: UUID) async throws {
    try await write { db in
      try db.execute(sql: "DELETE FROM sync_outbox WHERE user_id = ?", arguments: [user.storeText])
      try db.execute(sql: "DELETE FROM sync_remotes WHERE user_id = ?", arguments: [user.storeText])
    }
  }

  public func outbox(for user: UUID, limit: Int) async throws -> [SyncOutboxItem] {
    try await read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, change FROM sync_outbox WHERE user_id = ? ORDER BY id LIMIT ?",
        arguments: [user.storeText, limit]
      ).map { row in SyncOutboxItem(id: row["id"], change: try SyncOutboxCoding.change(row["change"])) }
    }
  }

  public func outboxCount(for user: UUID) async throws -> Int {
    try await read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox WHERE user_id = ?", arguments: [user.storeText]) ?? 0
    }
  }

  public func removeFromOutbox(through id: Int64, for user: UUID) async throws {
    try await write { db in
      try db.execute(sql: "DELETE FROM sync_outbox WHERE user_id = ? AND id <= ?", arguments: [user.storeText, id])
    }
  }

  public func applyPulled(_ page: SyncPullResponse, entries run: SyncEntryRun?, for user: UUID) async throws
    -> SyncPushResponse
  {
    let now = clock()
    return try await write { db in
      try db.requireUser(user)
      var merge = SyncMerge(SQLiteSyncStorage(db: db, user: user), strict: false, now: now)
      try merge.apply(page.changes, entries: run)
      try db.execute(
        sql: "UPDATE sync_remotes SET cursor = ? WHERE user_id = ?", arguments: [page.cursor, user.storeText])
      return merge.report
    }
  }

  public func journalRevisions(on day: Day, for user: UUID) async throws -> [JournalRevision] {
    try await read { db in
      try db.requireUser(user)
      return try Row.fetchAll(
        db, sql: "SELECT text, stamp, replaced_by FROM journal_revisions WHERE user_id = ? AND day = ? ORDER BY id",
        arguments: [user.storeText, day.description]
      ).map { row in
        guard let stamp = HybridStamp(row["stamp"]), let winner = HybridStamp(row["replaced_by"]) else {
          throw StoreError.corrupt("journal_revisions holds a stamp Tally did not write")
        }
        return JournalRevision(day: day, text: row["text"], stamp: stamp, replacedBy: winner)
      }
    }
  }

  public func recordSyncOutcome(at instant: Date, error: String?, for user: UUID) async throws {
    try await write { db in
      try db.execute(
        sql: "UPDATE sync_remotes SET last_sync_at = ?, last_error = ? WHERE user_id = ?",
        arguments: [InstantText.text(instant), error, user.storeText])
    }
  }
}
