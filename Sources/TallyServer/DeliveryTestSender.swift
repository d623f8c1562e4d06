import Foundation
import TallyAccounts
import TallyCore
import TallyDelivery
import TallyHTTP
import TallyPush
import TallyStore
import TallySync
import TallyTMDB
import TallyWeb

/// The faces' "send a test" through the same poster and transport the reminder sender uses.
struct DeliveryTestSender: TestSender {
  let poster: PushPoster
  let transport: any WebhookTransport
  let clock: @Sendable () -> Date

  func pushPublicKey() async throws -> String {
    try await poster.keys.key().publicKeyText
  }

  func sendTestPush(to subscription: PushSubscription, words: ReminderWords) async -> PushOutcome {
    await poster.post(.test(at: clock(), words: words), to: subscription)
  }

  func sendTestWebhook(to webhook: Webhook, words: ReminderWords) async throws -> Int {
    try await transport.post(WebhookMessage.test(at: clock(), words: words).request(for: webhook))
  }
}

extension AppServices {
  /// Services whose tests go out through delivery's senders: `webhookTransport` posts
  /// webhooks and push messages, `pushKeys` signs them (shared with the reminder sender).
  public init(
    store: any SyncingStore,
    configuration: ServerConfiguration,
    accounts: AccountService? = nil,
    throttle: SignInThrottle? = nil,
    clock: @escaping @Sendable () -> Date = { Date() },
    showSource: (any ShowSource)? = nil,
    webhookTransport: any WebhookTransport = HTTPWebhookTransport(),
    pushKeys: PushKeys? = nil,
    logos: LogoCache? = nil,
    providerSignIn: ProviderSignIn? = nil,
    reminderWords: @escaping @Sendable (UserSettings) -> ReminderWords = ReminderSpeech.words(for:)
  ) {
    let poster = PushPoster(
      keys: pushKeys ?? PushKeys(store: store, clock: clock), settings: configuration.push,
      transport: webhookTransport, clock: clock)
    self.init(
      store: store, configuration: configuration,
      testSender: DeliveryTestSender(poster: poster, transport: webhookTransport, clock: clock),
      accounts: accounts, throttle: throttle, clock: clock, showSource: showSource, logos: logos,
      providerSignIn: providerSignIn, reminderWords: reminderWords)
  }
}
