import Foundation
import PostgresNIO
import TallyCore
import TallyStore

// MARK: - Feed links and webhooks

extension PostgresStore {
  public func setFeedToken(hash: String, createdAt: Date, for user: UUID) async throws {
    let hash = try StoreError.validating { () throws(ValidationError) in try FeedTokenHash.checked(hash) }
    try await write { connection in
      try await connection.requireUser(user)
      let owner = try await connection.values("SELECT user_id FROM feed_tokens WHERE token_hash = \(hash)", as: UUID.self)
        .first
      if let owner, owner != user { throw StoreError.conflict("a feed link with this hash already exists") }
      try await connection.run(
        """
        INSERT INTO feed_tokens (user_id, token_hash, created_at) VALUES (\(user), \(hash), \(InstantText.text(createdAt)))
        ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
        """)
    }
  }

  public func deleteFeedToken(for user: UUID) async throws -> Bool {
    try await write { connection in
      try await connection.requireUser(user)
      return try await connection.run("DELETE FROM feed_tokens WHERE user_id = \(user) RETURNING 1") == 1
    }
  }

  public func feedTokenCreatedAt(for user: UUID) async throws -> Date? {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.values("SELECT created_at FROM feed_tokens WHERE user_id = \(user)", as: String.self)
        .first.map { text in try Stored.instant(text, "feed link of user \(user.storeText) created_at") }
    }
  }

  public func feedOwner(hash: String) async throws -> UUID? {
    let hash = hash.lowercased()
    return try await read { connection in
      try await connection.values("SELECT user_id FROM feed_tokens WHERE token_hash = \(hash)", as: UUID.self).first
    }
  }

  public func setWebhook(_ webhook: Webhook, for user: UUID) async throws {
    try await write { connection in
      try await connection.requireUser(user)
      try await connection.run(
        """
        INSERT INTO webhooks (user_id, url, kind, since)
        VALUES (\(user), \(webhook.url.absoluteString), \(webhook.kind.rawValue), \(InstantText.text(webhook.since)))
        ON CONFLICT (user_id) DO UPDATE SET url = excluded.url, kind = excluded.kind, since = excluded.since
        """)
    }
  }

  public func deleteWebhook(for user: UUID) async throws -> Bool {
    try await write { connection in
      try await connection.requireUser(user)
      return try await connection.run("DELETE FROM webhooks WHERE user_id = \(user) RETURNING 1") == 1
    }
  }

  public func webhook(for user: UUID) async throws -> Webhook? {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows("SELECT * FROM webhooks WHERE user_id = \(user)").first.map(Self.webhook)?.webhook
    }
  }

  public func webhooks() async throws -> [(user: UUID, webhook: Webhook)] {
    try await read { connection in
      try await connection.rows("SELECT * FROM webhooks ORDER BY user_id::text").map(Self.webhook)
    }
  }

  private static func webhook(_ row: PostgresRandomAccessRow) throws -> (user: UUID, webhook: Webhook) {
    let user = try row["user_id"].decode(UUID.self)
    let what = "webhook of user \(user.storeText)"
    let since = try Stored.instant(try PostgresRows.text(row, "since"), "\(what) since")
    let kindText = try PostgresRows.text(row, "kind")
    guard let kind = Webhook.Kind(rawValue: kindText) else {
      throw StoreError.corrupt("\(what) kind '\(kindText)' is not ntfy, gotify or json")
    }
    let url = try PostgresRows.text(row, "url")
    let webhook = try Stored.valid(what) { () throws(ValidationError) in
      try Webhook(url: url, kind: kind, since: since)
    }
    return (user, webhook)
  }
}

// MARK: - Reminder deliveries: the sender's claims, once across every instance

extension PostgresStore {
  public func recordDelivery(_ key: ReminderOccurrenceKey, sentAt: Date, for user: UUID) async throws -> Bool {
    try await write { connection in
      _ = try await connection.ownedHabit(key.habitID, of: user)
      return try await connection.run(
        """
        INSERT INTO reminder_deliveries (user_id, occurrence_key, habit_id, sent_at)
        VALUES (\(user), \(key.description), \(key.habitID), \(InstantText.text(sentAt)))
        ON CONFLICT (user_id, occurrence_key) DO NOTHING RETURNING 1
        """) == 1
    }
  }

  public func delivery(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> Date? {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.values(
        "SELECT sent_at FROM reminder_deliveries WHERE user_id = \(user) AND occurrence_key = \(key.description)",
        as: String.self
      ).first.map { text in try Stored.instant(text, "delivery \(key.description) sent_at") }
    }
  }

  public func deleteDeliveries(sentBefore instant: Date, for user: UUID) async throws -> Int {
    let cutoff = InstantText.text(instant)
    return try await write { connection in
      try await connection.requireUser(user)
      return try await connection.run(
        "DELETE FROM reminder_deliveries WHERE user_id = \(user) AND sent_at < \(cutoff) RETURNING 1")
    }
  }

  public func claimDelivery(_ delivery: ReminderDelivery, for user: UUID) async throws -> Bool {
    try await write { connection in
      _ = try await connection.ownedHabit(delivery.key.habitID, of: user)
      return try await connection.run(
        """
        INSERT INTO reminder_deliveries
          (user_id, occurrence_key, habit_id, sent_at, state, due_at, attempts, next_attempt_at)
        VALUES (\(user), \(delivery.key.description), \(delivery.key.habitID), \(InstantText.text(delivery.updatedAt)),
          \(delivery.state.rawValue), \(InstantText.text(delivery.dueAt)), \(delivery.attempts),
          \(delivery.nextAttemptAt.map(InstantText.text)))
        ON CONFLICT (user_id, occurrence_key) DO NOTHING RETURNING 1
        """) == 1
    }
  }

  public func updateDelivery(_ delivery: ReminderDelivery, for user: UUID) async throws {
    try await write { connection in
      try await connection.requireUser(user)
      let updated = try await connection.run(
        """
        UPDATE reminder_deliveries SET sent_at = \(InstantText.text(delivery.updatedAt)),
          state = \(delivery.state.rawValue), due_at = \(InstantText.text(delivery.dueAt)),
          attempts = \(delivery.attempts), next_attempt_at = \(delivery.nextAttemptAt.map(InstantText.text))
        WHERE user_id = \(user) AND occurrence_key = \(delivery.key.description) RETURNING 1
        """)
      guard updated == 1 else { throw StoreError.notFound(.reminderDelivery(delivery.key.description)) }
    }
  }

  public func deliveryRecord(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> ReminderDelivery? {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows(
        "SELECT * FROM reminder_deliveries WHERE user_id = \(user) AND occurrence_key = \(key.description)"
      ).first.map { row in try Self.delivery(row) }
    }
  }

  public func deliveries(in state: ReminderDelivery.State, for user: UUID) async throws -> [ReminderDelivery] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows(
        "SELECT * FROM reminder_deliveries WHERE user_id = \(user) AND state = \(state.rawValue)"
      ).map { row in try Self.delivery(row) }
        .sorted { ($0.dueAt, $0.key.description) < ($1.dueAt, $1.key.description) }
    }
  }

  /// A claimed occurrence; push deliveries keep the same fields, their time of change in
  /// `updated_at`. Rows copied from SQLite's v1 have no `due_at`: `sent_at` stands in.
  static func delivery(_ row: PostgresRandomAccessRow, kind: String = "delivery", updatedColumn: String = "sent_at")
    throws -> ReminderDelivery
  {
    let keyText = try PostgresRows.text(row, "occurrence_key")
    let what = "\(kind) \(keyText)"
    guard let key = ReminderOccurrenceKey(keyText) else { throw StoreError.corrupt("\(what) key is not habit/day/time") }
    let stateText = try PostgresRows.text(row, "state")
    guard let state = ReminderDelivery.State(rawValue: stateText) else {
      throw StoreError.corrupt("\(what) state '\(stateText)' is unknown")
    }
    let updatedAt = try Stored.instant(try PostgresRows.text(row, updatedColumn), "\(what) \(updatedColumn)")
    return ReminderDelivery(
      key: key, state: state,
      dueAt: try PostgresRows.optionalText(row, "due_at").map { try Stored.instant($0, "\(what) due_at") }
        ?? updatedAt,
      attempts: try row["attempts"].decode(Int.self),
      nextAttemptAt: try PostgresRows.optionalText(row, "next_attempt_at").map {
        try Stored.instant($0, "\(what) next_attempt_at")
      },
      updatedAt: updatedAt)
  }
}
