import Foundation
import TallyCore

/// Which reminder occurrences were already delivered, so a restarted or second sender never
/// sends one twice.
public protocol ReminderDeliveryRepository: Sendable {
  /// Records the delivery unless it is already recorded. Returns `true` when this call
  /// recorded it, `false` when it was there (then nothing changes): a sender that gets `false`
  /// must not send. ``StoreError/notFound(_:)`` when the key's habit is not the user's.
  func recordDelivery(_ key: ReminderOccurrenceKey, sentAt: Date, for user: UUID) async throws
    -> Bool

  /// When the occurrence was delivered, if it was.
  func delivery(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> Date?

  /// Forgets the user's deliveries sent before `instant`; returns how many.
  func deleteDeliveries(sentBefore instant: Date, for user: UUID) async throws -> Int
}
