import Foundation
import GRDB
import TallyCore
import TallyStore

// MARK: - The VAPID key and push subscriptions

extension SQLiteStore {
  public func vapidPrivateKey(orMake make: @Sendable () -> Data, createdAt: Date) async throws -> Data {
    let candidate = make()
    return try await write { db in
      // Two servers starting on one file: the first insert wins and both read it back.
      try db.execute(
        sql: "INSERT INTO vapid_keys (id, private_key, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING",
        arguments: [candidate, InstantText.text(createdAt)])
      guard let key = try Data.fetchOne(db, sql: "SELECT private_key FROM vapid_keys WHERE id = 1") else {
        throw StoreError.corrupt("vapid_keys has no key after one was stored")
      }
      return key
    }
  }

  public func addPushSubscription(_ subscription: PushSubscription, for user: UUID) async throws -> PushSubscription {
    try await write { db in
      try db.requireUser(user)
      let endpoint = subscription.endpoint.absoluteString
      var id = subscription.id.storeText
      if let row = try Row.fetchOne(
        db, sql: "SELECT id, user_id FROM push_subscriptions WHERE endpoint = ?", arguments: [endpoint])
      {
        let owner: String = row["user_id"]
        if owner == user.storeText {
          id = row["id"]
        }
        // Another user's records for this browser go with their subscription (cascade).
        try db.execute(sql: "DELETE FROM push_subscriptions WHERE endpoint = ?", arguments: [endpoint])
      }
      try db.execute(
        sql: """
          INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, name, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          id, user.storeText, endpoint, subscription.p256dh, subscription.auth, subscription.name,
          InstantText.text(subscription.createdAt),
        ])
      return try Self.subscription(
        Row.fetchOne(db, sql: "SELECT * FROM push_subscriptions WHERE id = ?", arguments: [id])!)
    }
  }

  public func pushSubscriptions(for user: UUID) async throws -> [PushSubscription] {
    try await read { db in
      try db.requireUser(user)
      return try Row.fetchAll(
        db, sql: "SELECT * FROM push_subscriptions WHERE user_id = ?", arguments: [user.storeText]
      ).map { row throws(StoreError) in try Self.subscription(row) }
        .sorted { ($0.createdAt, $0.id.storeText) < ($1.createdAt, $1.id.storeText) }
    }
  }

  public func deletePushSubscription(_ id: UUID, for user: UUID) async throws -> Bool {
    try await write { db in
      try db.requireUser(user)
      try db.execute(
        sql: "DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?", arguments: [id.storeText, user.storeText])
      return db.changesCount == 1
    }
  }

  public func allPushSubscriptions() async throws -> [(user: UUID, subscription: PushSubscription)] {
    try await readAside { db in
      try Row.fetchAll(db, sql: "SELECT * FROM push_subscriptions ORDER BY user_id, created_at, id")
        .map { row throws(StoreError) in
          (try Stored.uuid(row["user_id"], "push_subscriptions.user_id"), try Self.subscription(row))
        }
    }
  }

  private static func subscription(_ row: Row) throws(StoreError) -> PushSubscription {
    let idText: String = row["id"]
    let what = "push subscription \(idText)"
    let id = try Stored.uuid(idText, "push_subscriptions.id")
    let createdAt = try Stored.instant(row["created_at"], "\(what) created_at")
    return try Stored.valid(what) { () throws(ValidationError) in
      try PushSubscription(
        id: id, endpoint: row["endpoint"], p256dh: row["p256dh"], auth: row["auth"], name: row["name"],
        createdAt: createdAt)
    }
  }
}

// MARK: - The push sender's record of each occurrence per subscription

extension SQLiteStore {
  public func claimPushDelivery(_ delivery: ReminderDelivery, to subscription: UUID, for user: UUID) async throws -> Bool {
    try await write { db in
      _ = try db.ownedHabit(delivery.key.habitID, of: user)
      try db.requireSubscription(subscription, of: user)
      try db.execute(
        sql: """
          INSERT INTO push_deliveries
            (subscription_id, occurrence_key, user_id, habit_id, updated_at, state, due_at, attempts, next_attempt_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (subscription_id, occurrence_key) DO NOTHING
          """,
        arguments: [subscription.storeText, delivery.key.description, user.storeText, delivery.key.habitID.storeText]
          + Self.stateArguments(delivery))
      return db.changesCount == 1
    }
  }

  public func updatePushDelivery(_ delivery: ReminderDelivery, to subscription: UUID, for user: UUID) async throws {
    try await write { db in
      try db.requireUser(user)
      try db.execute(
        sql: """
          UPDATE push_deliveries SET updated_at = ?, state = ?, due_at = ?, attempts = ?, next_attempt_at = ?
          WHERE subscription_id = ? AND occurrence_key = ? AND user_id = ?
          """,
        arguments: Self.stateArguments(delivery)
          + [subscription.storeText, delivery.key.description, user.storeText])
      guard db.changesCount == 1 else { throw StoreError.notFound(.reminderDelivery(delivery.key.description)) }
    }
  }

  public func pushDeliveries(
    in state: ReminderDelivery.State, to subscription: UUID, for user: UUID
  ) async throws -> [ReminderDelivery] {
    try await read { db in
      try db.requireUser(user)
      return try Row.fetchAll(
        db,
        sql: "SELECT * FROM push_deliveries WHERE subscription_id = ? AND user_id = ? AND state = ?",
        arguments: [subscription.storeText, user.storeText, state.rawValue]
      ).map { row throws(StoreError) in try Self.delivery(row, kind: "push delivery", updatedColumn: "updated_at") }
        .sorted { ($0.dueAt, $0.key.description) < ($1.dueAt, $1.key.description) }
    }
  }
}

extension Database {
  func requireSubscription(_ id: UUID, of user: UUID) throws {
    let found = try Bool.fetchOne(
      self, sql: "SELECT 1 FROM push_subscriptions WHERE id = ? AND user_id = ?",
      arguments: [id.storeText, user.storeText]) ?? false
    guard found else { throw StoreError.notFound(.pushSubscription(id)) }
  }
}
