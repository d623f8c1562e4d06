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

  /// Claims an occurrence (the whole row as given) unless it is already recorded; `true` when
  /// this call claimed it. Only the caller that gets `true` may send it.
  /// ``StoreError/notFound(_:)`` when the key's habit is not the user's.
  func claimDelivery(_ delivery: ReminderDelivery, for user: UUID) async throws -> Bool

  /// Replaces the state of a claimed occurrence. ``StoreError/notFound(_:)`` when it was never
  /// claimed (or its habit was deleted since).
  func updateDelivery(_ delivery: ReminderDelivery, for user: UUID) async throws

  /// The recorded state of an occurrence, if any.
  func deliveryRecord(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> ReminderDelivery?

  /// The user's occurrences in `state`, by due instant.
  func deliveries(in state: ReminderDelivery.State, for user: UUID) async throws -> [ReminderDelivery]
}
