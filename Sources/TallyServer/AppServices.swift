import Foundation
import TallyAccounts
import TallyCore
import TallyStore
import TallySync
import TallyTMDB

/// What the controllers share: the store, accounts, the configuration and the clock.
public struct AppServices: Sendable {
  public let store: any SyncingStore
  public let accounts: AccountService
  public let throttle: SignInThrottle
  public let configuration: ServerConfiguration
  /// The wall clock, injected so tests fix "now" (and with it "today").
  public let clock: @Sendable () -> Date
  /// TMDB, or a fake in tests; `nil` when the server has no API key.
  public let showSource: (any ShowSource)?
  /// Sends webhook POSTs (the test notification; the sender has its own).
  public let webhookTransport: any WebhookTransport
  /// The VAPID key, shared with the reminder sender so both read the store once.
  public let pushKeys: PushKeys
  /// Bodies of expensive reads, kept until the store's revision moves.
  let cache = ResponseCache()

  public init(
    store: any SyncingStore,
    configuration: ServerConfiguration,
    accounts: AccountService? = nil,
    throttle: SignInThrottle? = nil,
    clock: @escaping @Sendable () -> Date = { Date() },
    showSource: (any ShowSource)? = nil,
    webhookTransport: any WebhookTransport = URLSessionWebhookTransport(),
    pushKeys: PushKeys? = nil
  ) {
    self.store = store
    self.configuration = configuration
    self.accounts =
      accounts ?? AccountService(store: store, hasher: PasswordHasher(cost: configuration.passwordCost))
    self.throttle = throttle ?? SignInThrottle(attempts: store)
    self.clock = clock
    self.showSource = showSource ?? configuration.tmdb.map { TMDBClient(configuration: $0) as any ShowSource }
    self.webhookTransport = webhookTransport
    self.pushKeys = pushKeys ?? PushKeys(store: store, clock: clock)
  }

  /// Sends one push message now, as the sender would (the "send a test" actions).
  var pushPoster: PushPoster {
    PushPoster(keys: pushKeys, settings: configuration.push, transport: webhookTransport, clock: clock)
  }
}

extension AppServices {
  /// The user's day rules and what day it is for them now (SPEC 1).
  func calendar(for user: User) throws -> (calendar: DayCalendar, today: Day) {
    let calendar = try user.settings.dayCalendar()
    return (calendar, calendar.day(containing: clock()))
  }
}
