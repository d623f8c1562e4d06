import Foundation
import TallyCore

/// Web Push: the server's VAPID key, each user's subscribed browsers, and the sender's record
/// of each reminder per browser. Server-side data, like webhooks: never synced or exported.
public protocol PushRepository: Sendable {
  /// The server's VAPID private key (32 raw bytes). The first call stores `make()`'s key;
  /// every later call, from any server on the file, returns that same key.
  func vapidPrivateKey(orMake make: @Sendable () -> Data, createdAt: Date) async throws -> Data

  /// Adds the subscription. Its endpoint is one browser: a subscription already there for it
  /// is replaced, keeping its id when it was this user's (a browser re-subscribing), and
  /// dropped with its records when it was another user's (they share the browser).
  /// Returns the subscription as stored.
  func addPushSubscription(_ subscription: PushSubscription, for user: UUID) async throws -> PushSubscription

  /// The user's subscriptions, oldest first.
  func pushSubscriptions(for user: UUID) async throws -> [PushSubscription]

  /// Removes one of the user's subscriptions with its delivery records; `false` when the user
  /// has none with this id.
  func deletePushSubscription(_ id: UUID, for user: UUID) async throws -> Bool

  /// Every user's subscriptions, for the sender that runs inside the server.
  func allPushSubscriptions() async throws -> [(user: UUID, subscription: PushSubscription)]

  /// Claims an occurrence for one subscription, as ``ReminderDeliveryRepository/claimDelivery(_:for:)``
  /// does for the webhook: `true` only for the one call that recorded it.
  /// ``StoreError/notFound(_:)`` when the habit or the subscription is not the user's.
  func claimPushDelivery(_ delivery: ReminderDelivery, to subscription: UUID, for user: UUID) async throws -> Bool

  /// Replaces the state of a claimed occurrence. ``StoreError/notFound(_:)`` when it was never
  /// claimed for this subscription (or the subscription or habit is gone since).
  func updatePushDelivery(_ delivery: ReminderDelivery, to subscription: UUID, for user: UUID) async throws

  /// The subscription's occurrences in `state`, by due instant.
  func pushDeliveries(
    in state: ReminderDelivery.State, to subscription: UUID, for user: UUID
  ) async throws -> [ReminderDelivery]
}
