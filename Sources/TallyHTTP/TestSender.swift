import Foundation
import TallyCore
import TallyPush
import TallyStore

/// What the API and the pages may ask of delivery: the key browsers subscribe with, and one
/// test message now. Delivery's senders stand behind it, so neither face imports them.
public protocol TestSender: Sendable {
  /// The VAPID public key, base64url, for `PushManager.subscribe`.
  func pushPublicKey() async throws -> String
  func sendTestPush(to subscription: PushSubscription, words: ReminderWords) async -> PushOutcome
  /// The receiver's status code; throws when it gave none.
  func sendTestWebhook(to webhook: Webhook, words: ReminderWords) async throws -> Int
}
