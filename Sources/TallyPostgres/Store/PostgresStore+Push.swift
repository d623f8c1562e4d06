import Foundation
import PostgresNIO
import TallyCore
import TallyStore

// MARK: - The VAPID key and push subscriptions

extension PostgresStore {
  public func vapidPrivateKey(orMake make: @Sendable () -> Data, createdAt: Date) async throws -> Data {
    let candidate = make()
    return try await write { connection in
      // Instances starting together: the first insert wins and every one reads it back.
      try await connection.run(
        """
        INSERT INTO vapid_keys (id, private_key, created_at) VALUES (1, \(candidate), \(InstantText.text(createdAt)))
        ON CONFLICT (id) DO NOTHING
        """)
      guard let key = try await connection.values("SELECT private_key FROM vapid_keys WHERE id = 1", as: Data.self).first
      else { throw StoreError.corrupt("vapid_keys has no key after one was stored") }
      return key
    }
  }

  public func addPushSubscription(_ subscription: PushSubscription, for user: UUID) async throws -> PushSubscription {
    try await write { connection in
      try await connection.requireUser(user)
      let endpoint = subscription.endpoint.absoluteString
      var id = subscription.id
      let rows = try await connection.rows(
        "SELECT id, user_id FROM push_subscriptions WHERE endpoint = \(endpoint) FOR UPDATE")
      if let row = rows.first {
        if try row["user_id"].decode(UUID.self) == user { id = try row["id"].decode(UUID.self) }
        // Another user's records for this browser go with their subscription (cascade).
        try await connection.run("DELETE FROM push_subscriptions WHERE endpoint = \(endpoint)")
      }
      let inserted = try await connection.rows(
        """
        INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, name, created_at)
        VALUES (\(id), \(user), \(endpoint), \(subscription.p256dh), \(subscription.auth), \(subscription.name),
          \(InstantText.text(subscription.createdAt)))
        RETURNING *
        """)
      guard let row = inserted.first else { throw StoreError.corrupt("a push subscription was not stored") }
      return try Self.subscription(row)
    }
  }

  public func pushSubscriptions(for user: UUID) async throws -> [PushSubscription] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows("SELECT * FROM push_subscriptions WHERE user_id = \(user)")
        .map(Self.subscription)
        .sorted { ($0.createdAt, $0.id.storeText) < ($1.createdAt, $1.id.storeText) }
    }
  }

  public func deletePushSubscription(_ id: UUID, for user: UUID) async throws -> Bool {
    try await write { connection in
      try await connection.requireUser(user)
      return try await connection.run(
        "DELETE FROM push_subscriptions WHERE id = \(id) AND user_id = \(user) RETURNING 1") == 1
    }
  }

  public func allPushSubscriptions() async throws -> [(user: UUID, subscription: PushSubscription)] {
    try await read { connection in
      try await connection.rows("SELECT * FROM push_subscriptions ORDER BY user_id, created_at, id")
        .map { row in (try row["user_id"].decode(UUID.self), try Self.subscription(row)) }
    }
  }

  private static func subscription(_ row: PostgresRandomAccessRow) throws -> PushSubscription {
    let id = try row["id"].decode(UUID.self)
    let what = "push subscription \(id.storeText)"
    let createdAt = try Stored.instant(try PostgresRows.text(row, "created_at"), "\(what) created_at")
    let endpoint = try PostgresRows.text(row, "endpoint")
    let p256dh = try row["p256dh"].decode(Data.self)
    let auth = try row["auth"].decode(Data.self)
    let name = try PostgresRows.text(row, "name")
    return try Stored.valid(what) { () throws(ValidationError) in
      try PushSubscription(id: id, endpoint: endpoint, p256dh: p256dh, auth: auth, name: name, createdAt: createdAt)
    }
  }
}

// MARK: - The push sender's record of each occurrence per subscription

extension PostgresStore {
  public func claimPushDelivery(_ delivery: ReminderDelivery, to subscription: UUID, for user: UUID) async throws -> Bool {
    try await write { connection in
      _ = try await connection.ownedHabit(delivery.key.habitID, of: user)
      guard
        try await connection.exists(
          "SELECT EXISTS (SELECT 1 FROM push_subscriptions WHERE id = \(subscription) AND user_id = \(user))")
      else { throw StoreError.notFound(.pushSubscription(subscription)) }
      return try await connection.run(
        """
        INSERT INTO push_deliveries
          (subscription_id, occurrence_key, user_id, habit_id, updated_at, state, due_at, attempts, next_attempt_at)
        VALUES (\(subscription), \(delivery.key.description), \(user), \(delivery.key.habitID),
          \(InstantText.text(delivery.updatedAt)), \(delivery.state.rawValue), \(InstantText.text(delivery.dueAt)),
          \(delivery.attempts), \(delivery.nextAttemptAt.map(InstantText.text)))
        ON CONFLICT (subscription_id, occurrence_key) DO NOTHING RETURNING 1
        """) == 1
    }
  }

  public func updatePushDelivery(_ delivery: ReminderDelivery, to subscription: UUID, for user: UUID) async throws {
    try await write { connection in
      try await connection.requireUser(user)
      let updated = try await connection.run(
        """
        UPDATE push_deliveries SET updated_at = \(InstantText.text(delivery.updatedAt)),
          state = \(delivery.state.rawValue), due_at = \(InstantText.text(delivery.dueAt)),
          attempts = \(delivery.attempts), next_attempt_at = \(delivery.nextAttemptAt.map(InstantText.text))
        WHERE subscription_id = \(subscription) AND occurrence_key = \(delivery.key.description)
          AND user_id = \(user) RETURNING 1
        """)
      guard updated == 1 else { throw StoreError.notFound(.reminderDelivery(delivery.key.description)) }
    }
  }

  public func pushDeliveries(
    in state: ReminderDelivery.State, to subscription: UUID, for user: UUID
  ) async throws -> [ReminderDelivery] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows(
        """
        SELECT * FROM push_deliveries
        WHERE subscription_id = \(subscription) AND user_id = \(user) AND state = \(state.rawValue)
        """
      ).map { row in try Self.delivery(row, kind: "push delivery", updatedColumn: "updated_at") }
        .sorted { ($0.dueAt, $0.key.description) < ($1.dueAt, $1.key.description) }
    }
  }
}
