import Foundation
import TallyCore

/// How reminders reach a user beyond the app: the secret of their calendar feed link and
/// their webhook.
public protocol ReminderChannelRepository: Sendable {
  /// Sets the user's feed secret (its SHA-256 hex digest), replacing, and so revoking, any
  /// earlier one. ``StoreError/conflict(_:)`` when another user's feed has this hash.
  func setFeedToken(hash: String, createdAt: Date, for user: UUID) async throws

  /// Revokes the user's feed link; `false` when there was none.
  func deleteFeedToken(for user: UUID) async throws -> Bool

  /// When the user's current feed link was made, `nil` when they have none.
  func feedTokenCreatedAt(for user: UUID) async throws -> Date?

  /// The user a feed secret's hash opens, if any: feed requests carry no other credential.
  func feedOwner(hash: String) async throws -> UUID?

  /// Sets (or replaces) the user's webhook.
  func setWebhook(_ webhook: Webhook, for user: UUID) async throws

  /// Removes the user's webhook; `false` when there was none.
  func deleteWebhook(for user: UUID) async throws -> Bool

  func webhook(for user: UUID) async throws -> Webhook?

  /// Every user's webhook, for the sender that runs inside the server.
  func webhooks() async throws -> [(user: UUID, webhook: Webhook)]
}
