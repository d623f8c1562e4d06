import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Sync: the server's feed and merge, a replica's remote and outbox (docs/sync.md)

extension PostgresStore: SyncRepository {
  public func syncDevice() async throws -> UUID {
    try await read { connection in try await connection.syncDevice() }
  }

  /// A page is read in one snapshot; positions are handed out under the user's head lock and
  /// commit in order, so a page never skips a change that commits later below it.
  public func syncChanges(for user: UUID, after position: Int64, limit: Int) async throws -> SyncChangePage {
    try await read(.repeatableReadOnly) { connection in
      let rows = try await connection.feedRows(user, after: position, limit: limit)
      var changes: [SyncChange] = []
      for row in rows.prefix(limit) {
        changes += try PostgresConnection.syncEntity(row).changes(
          kind: try Self.kind(row), id: try row["entity_id"].decode(String.self))
      }
      let last = try rows.prefix(limit).last.map { try $0["position"].decode(Int64.self) } ?? position
      return SyncChangePage(changes: changes, position: last, more: rows.count > limit)
    }
  }

  /// Read from the database, exact; reads that come together share a query (``Gathered``).
  public func syncHead(for user: UUID) async throws -> Int64 {
    try await database.headReads.read(user) { users in
      try await read { connection in
        Dictionary(try await connection.kept(PostgresKeptStatements.HeadsOfUsers(users: users))) { $1 }
      }
    }
  }

  public func applyPush(_ request: SyncPushRequest, for user: UUID, now: Date, limits: SyncLimits)
    async throws -> SyncPushResponse
  {
    try await write(turnOf: user) { connection in
      try await connection.lockUser(user)
      let settings = try await connection.user(user).settings
      let calendar = try Stored.valid("users.settings") { () throws(ValidationError) in
        try settings.dayCalendar()
      }
      try SyncBatchRules.check(
        request, server: try await connection.syncDevice(), now: now, calendar: calendar, limits: limits)
      return try await PostgresSyncStorage.merge(request.changes, connection, user: user, strict: true, now: now)
    }
  }

  public func syncRemote(for user: UUID) async throws -> SyncRemote? {
    try await read { connection in
      try await connection.rows("SELECT * FROM sync_remotes WHERE user_id = \(user)").first.map { row in
        SyncRemote(
          url: try PostgresRows.text(row, "url"), token: try PostgresRows.text(row, "token"),
          cursor: try PostgresRows.optionalText(row, "cursor"),
          lastSync: try PostgresRows.optionalText(row, "last_sync_at").flatMap(InstantText.date),
          lastError: try PostgresRows.optionalText(row, "last_error"))
      }
    }
  }

  public func attachRemote(_ remote: SyncRemote, for user: UUID) async throws -> Int {
    try await write { connection in
      try await connection.lockUser(user)
      guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM sync_remotes WHERE user_id = \(user))") else {
        throw StoreError.conflict("this database already syncs with a server; remove it first")
      }
      try await connection.run(
        "INSERT INTO sync_remotes (user_id, url, token) VALUES (\(user), \(remote.url), \(remote.token))")
      // The server's settings win on attaching: whatever it has is taken on the first pull.
      try await connection.run("DELETE FROM sync_entities WHERE user_id = \(user) AND kind = 'settings'")
      var changes: [String] = []
      for row in try await connection.rows(
        "SELECT kind, entity_id, fields, stamps, deleted FROM sync_entities WHERE user_id = \(user) ORDER BY position")
      {
        let entity = try PostgresConnection.syncEntity(row)
        changes += entity.changes(kind: try Self.kind(row), id: try row["entity_id"].decode(String.self))
          .map(SyncJSONText.change)
      }
      try await connection.run(
        "INSERT INTO sync_outbox (user_id, change) SELECT \(user), * FROM unnest(\(changes)::text[])")
      return changes.count
    }
  }

  public func detachRemote(for user: UUID) async throws {
    try await write { connection in
      try await connection.run("DELETE FROM sync_outbox WHERE user_id = \(user)")
      try await connection.run("DELETE FROM sync_remotes WHERE user_id = \(user)")
    }
  }

  public func outbox(for user: UUID, limit: Int) async throws -> [SyncOutboxItem] {
    try await read { connection in
      try await connection.rows("SELECT id, change FROM sync_outbox WHERE user_id = \(user) ORDER BY id LIMIT \(limit)")
        .map { row in
          SyncOutboxItem(
            id: try row["id"].decode(Int64.self),
            change: try JSONDecoder().decode(SyncChange.self, from: Data(try PostgresRows.text(row, "change").utf8)))
        }
    }
  }

  public func outboxCount(for user: UUID) async throws -> Int {
    try await read { connection in
      Int(try await connection.values("SELECT count(*) FROM sync_outbox WHERE user_id = \(user)", as: Int64.self).first ?? 0)
    }
  }

  public func removeFromOutbox(through id: Int64, for user: UUID) async throws {
    try await write { connection in
      _ = try await connection.run("DELETE FROM sync_outbox WHERE user_id = \(user) AND id <= \(id)")
    }
  }

  /// Merges change by change: `entries` is a shortcut for a replica's own file.
  public func applyPulled(_ page: SyncPullResponse, entries _: SyncEntryRun?, for user: UUID) async throws
    -> SyncPushResponse
  {
    let now = clock()
    return try await write(turnOf: user) { connection in
      try await connection.lockUser(user)
      let report = try await PostgresSyncStorage.merge(page.changes, connection, user: user, strict: false, now: now)
      try await connection.run("UPDATE sync_remotes SET cursor = \(page.cursor) WHERE user_id = \(user)")
      return report
    }
  }

  public func journalRevisions(on day: Day, for user: UUID) async throws -> [JournalRevision] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows(
        """
        SELECT text, stamp, replaced_by FROM journal_revisions WHERE user_id = \(user) AND day = \(day.description)
        ORDER BY id
        """
      ).map { row in
        guard let stamp = HybridStamp(try PostgresRows.text(row, "stamp")),
          let winner = HybridStamp(try PostgresRows.text(row, "replaced_by"))
        else { throw StoreError.corrupt("journal_revisions holds a stamp Tally did not write") }
        return JournalRevision(day: day, text: try PostgresRows.text(row, "text"), stamp: stamp, replacedBy: winner)
      }
    }
  }

  public func recordSyncOutcome(at instant: Date, error: String?, for user: UUID) async throws {
    try await write { connection in
      _ = try await connection.run(
        "UPDATE sync_remotes SET last_sync_at = \(InstantText.text(instant)), last_error = \(error) WHERE user_id = \(user)")
    }
  }

  private static func kind(_ row: PostgresRandomAccessRow) throws -> SyncKind {
    let text = try PostgresRows.text(row, "kind")
    guard let kind = SyncKind(rawValue: text) else { throw StoreError.corrupt("sync_entities.kind '\(text)' is not a kind") }
    return kind
  }
}

extension PostgresConnection {
  /// Up to `limit` + 1 of the user's feed rows after `position`: one more says more follow.
  func feedRows(_ user: UUID, after position: Int64, limit: Int) async throws -> [PostgresRandomAccessRow] {
    try await requireUser(user)
    return try await rows(
      """
      SELECT kind, entity_id, fields, stamps, deleted, position FROM sync_entities
      WHERE user_id = \(user) AND position > \(position) ORDER BY position LIMIT \(limit + 1)
      """)
  }
}
