import Foundation
import GRDB
import TallyCore
import TallyStore

// MARK: - Feed links and webhooks

extension SQLiteStore {
  public func setFeedToken(hash: String, createdAt: Date, for user: UUID) async throws {
    let hash = try StoreError.validating { () throws(ValidationError) in try FeedTokenHash.checked(hash) }
    try await write { db in
      try db.requireUser(user)
      let owner = try String.fetchOne(
        db, sql: "SELECT user_id FROM feed_tokens WHERE token_hash = ?", arguments: [hash])
      if let owner, owner != user.storeText {
        throw StoreError.conflict("a feed link with this hash already exists")
      }
      try db.execute(
        sql: """
          INSERT INTO feed_tokens (user_id, token_hash, created_at) VALUES (?, ?, ?)
          ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
          """,
        arguments: [user.storeText, hash, InstantText.text(createdAt)])
    }
  }

  public func deleteFeedToken(for user: UUID) async throws -> Bool {
    try await write { db in
      try db.requireUser(user)
      try db.execute(sql: "DELETE FROM feed_tokens WHERE user_id = ?", arguments: [user.storeText])
      return db.changesCount == 1
    }
  }

  public func feedTokenCreatedAt(for user: UUID) async throws -> Date? {
    try await read { db in
      try db.requireUser(user)
      return try String.fetchOne(
        db, sql: "SELECT created_at FROM feed_tokens WHERE user_id = ?", arguments: [user.storeText]
      ).map { text throws(StoreError) in try Stored.instant(text, "feed link of user \(user.storeText) created_at") }
    }
  }

  public func feedOwner(hash: String) async throws -> UUID? {
    let hash = hash.lowercased()
    return try await read { db in
      try String.fetchOne(db, sql: "SELECT user_id FROM feed_tokens WHERE token_hash = ?", arguments: [hash])
        .map { text throws(StoreError) in try Stored.uuid(text, "feed_tokens.user_id") }
    }
  }

  public func setWebhook(_ webhook: Webhook, for user: UUID) async throws {
    try await write { db in
      try db.requireUser(user)
      try db.execute(
        sql: """
          INSERT INTO webhooks (user_id, url, kind, since) VALUES (?, ?, ?, ?)
          ON CONFLICT (user_id) DO UPDATE SET url = excluded.url, kind = excluded.kind, since = excluded.since
          """,
        arguments: [user.storeText, webhook.url.absoluteString, webhook.kind.rawValue, InstantText.text(webhook.since)])
    }
  }

  public func deleteWebhook(for user: UUID) async throws -> Bool {
    try await write { db in
      try db.requireUser(user)
      try db.execute(sql: "DELETE FROM webhooks WHERE user_id = ?", arguments: [user.storeText])
      return db.changesCount == 1
    }
  }

  public func webhook(for user: UUID) async throws -> Webhook? {
    try await read { db in
      try db.requireUser(user)
      return try Row.fetchOne(
        db, sql: "SELECT user_id, url, kind, since FROM webhooks WHERE user_id = ?", arguments: [user.storeText]
      ).map { row throws(StoreError) in try Self.webhook(row).webhook }
    }
  }

  public func webhooks() async throws -> [(user: UUID, webhook: Webhook)] {
    try await readAside { db in
      try Row.fetchAll(db, sql: "SELECT user_id, url, kind, since FROM webhooks ORDER BY user_id")
        .map { row throws(StoreError) in try Self.webhook(row) }
    }
  }

  private static func webhook(_ row: Row) throws(StoreError) -> (user: UUID, webhook: Webhook) {
    let userText: String = row["user_id"]
    let what = "webhook of user \(userText)"
    let user = try Stored.uuid(userText, "webhooks.user_id")
    let since = try Stored.instant(row["since"], "\(what) since")
    let kindText: String = row["kind"]
    guard let kind = Webhook.Kind(rawValue: kindText) else {
      throw .corrupt("\(what) kind '\(kindText)' is not ntfy, gotify or json")
    }
    let webhook = try Stored.valid(what) { () throws(ValidationError) in
      try Webhook(url: row["url"], kind: kind, since: since)
    }
    return (user, webhook)
  }
}

// MARK: - The webhook sender's record of each occurrence

extension SQLiteStore {
  public func claimDelivery(_ delivery: ReminderDelivery, for user: UUID) async throws -> Bool {
    try await write { db in
      _ = try db.ownedHabit(delivery.key.habitID, of: user)
      try db.execute(
        sql: """
          INSERT INTO reminder_deliveries
            (user_id, occurrence_key, habit_id, sent_at, state, due_at, attempts, next_attempt_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, occurrence_key) DO NOTHING
          """,
        arguments: [user.storeText, delivery.key.description, delivery.key.habitID.storeText]
          + Self.stateArguments(delivery))
      return db.changesCount == 1
    }
  }

  public func updateDelivery(_ delivery: ReminderDelivery, for user: UUID) async throws {
    try await write { db in
      try db.requireUser(user)
      try db.execute(
        sql: """
          UPDATE reminder_deliveries SET sent_at = ?, state = ?, due_at = ?, attempts = ?, next_attempt_at = ?
          WHERE user_id = ? AND occurrence_key = ?
          """,
        arguments: Self.stateArguments(delivery) + [user.storeText, delivery.key.description])
      guard db.changesCount == 1 else { throw StoreError.notFound(.reminderDelivery(delivery.key.description)) }
    }
  }

  public func deliveryRecord(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> ReminderDelivery? {
    try await read { db in
      try db.requireUser(user)
      return try Row.fetchOne(
        db, sql: "SELECT * FROM reminder_deliveries WHERE user_id = ? AND occurrence_key = ?",
        arguments: [user.storeText, key.description]
      ).map { row throws(StoreError) in try Self.delivery(row) }
    }
  }

  public func deliveries(in state: ReminderDelivery.State, for user: UUID) async throws -> [ReminderDelivery] {
    try await read { db in
      try db.requireUser(user)
      return try Row.fetchAll(
        db, sql: "SELECT * FROM reminder_deliveries WHERE user_id = ? AND state = ?",
        arguments: [user.storeText, state.rawValue]
      ).map { row throws(StoreError) in try Self.delivery(row) }
        .sorted { ($0.dueAt, $0.key.description) < ($1.dueAt, $1.key.description) }
    }
  }

  /// Shared with push deliveries, whose claims have the same columns.
  static func stateArguments(_ delivery: ReminderDelivery) -> StatementArguments {
    [
      InstantText.text(delivery.updatedAt), delivery.state.rawValue, InstantText.text(delivery.dueAt),
      delivery.attempts, delivery.nextAttemptAt.map(InstantText.text),
    ]
  }

  /// Rows from before v3 have no `due_at`; they were written when sent, so `sent_at` stands in.
  /// Push deliveries keep the same fields, their time of change in `updated_at`.
  static func delivery(_ row: Row, kind: String = "delivery", updatedColumn: String = "sent_at")
    throws(StoreError) -> ReminderDelivery
  {
    let keyText: String = row["occurrence_key"]
    let what = "\(kind) \(keyText)"
    guard let key = ReminderOccurrenceKey(keyText) else { throw .corrupt("\(what) key is not habit/day/time") }
    let stateText: String = row["state"]
    guard let state = ReminderDelivery.State(rawValue: stateText) else {
      throw .corrupt("\(what) state '\(stateText)' is unknown")
    }
    let updatedAt = try Stored.instant(row[updatedColumn], "\(what) \(updatedColumn)")
    let dueText: String? = row["due_at"]
    let nextText: String? = row["next_attempt_at"]
    return ReminderDelivery(
      key: key, state: state,
      dueAt: try dueText.map { text throws(StoreError) in try Stored.instant(text, "\(what) due_at") } ?? updatedAt,
      attempts: row["attempts"],
      nextAttemptAt: try nextText.map { text throws(StoreError) in try Stored.instant(text, "\(what) next_attempt_at") },
      updatedAt: updatedAt)
  }
}
