import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Reminder deliveries

extension SQLiteStore {
  public func recordDelivery(_ key: ReminderOccurrenceKey, sentAt: Date, for user: UUID)
    async throws -> Bool
  {
    try await write { db in
      _ = try db.ownedHabit(key.habitID, of: user)
      try db.execute(
        sql: """
          INSERT INTO reminder_deliveries (user_id, occurrence_key, habit_id, sent_at)
          VALUES (?, ?, ?, ?) ON CONFLICT (user_id, occurrence_key) DO NOTHING
          """,
        arguments: [
          user.storeText, key.description, key.habitID.storeText, InstantText.text(sentAt),
        ])
      return db.changesCount == 1
    }
  }

  public func delivery(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> Date? {
    try await read { db in
      try db.requireUser(user)
      return try ReminderDeliveryRecord.fetchOne(
        db, key: ["user_id": user.storeText, "occurrence_key": key.description]
      ).map { record throws(StoreError) in
        try Stored.instant(record.sentAt, "delivery \(record.occurrenceKey) sent_at")
      }
    }
  }

  public func deleteDeliveries(sentBefore instant: Date, for user: UUID) async throws -> Int {
    let cutoff = InstantText.text(instant)
    return try await write { db in
      try db.requireUser(user)
      typealias C = ReminderDeliveryRecord.Columns
      return try ReminderDeliveryRecord
        .filter(C.userID == user.storeText && C.sentAt < cutoff).deleteAll(db)
    }
  }
}
