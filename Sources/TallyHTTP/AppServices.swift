import Foundation
import TallyAccounts
import TallyCore
import TallyStore
import TallySync
import TallyTMDB

/// What the API and the pages share: the store, accounts, the configuration and the clock.
public struct AppServices: Sendable {
  public let store: any SyncingStore
  public let accounts: AccountService
  public let throttle: SignInThrottle
  public let configuration: ServerConfiguration
  /// The wall clock, injected so tests fix "now" (and with it "today").
  public let clock: @Sendable () -> Date
  /// TMDB, or a fake in tests; `nil` when the server has no API key.
  public let showSource: (any ShowSource)?
  /// The "send a test" actions and the push key: delivery's, given by the composition.
  public let testSender: any TestSender
  /// Bodies of expensive reads, kept until their user's revision moves.
  package let cache = ResponseCache()
  /// Each active user's habit days, kept up to date from the change feed (issue 27).
  package let histories = HabitHistories()
  /// The server's name in sync cursors.
  package let syncDevice = KnownSyncDevice()
  /// Provider logos, served from this origin.
  package let logos: LogoCache
  /// Sign-in through an OpenID Connect provider, when the server has one.
  public let providerSignIn: ProviderSignIn?
  /// What an account's reminders say, in its language: the web app's catalogs, given by the composition.
  public let reminderWords: @Sendable (UserSettings) -> ReminderWords

  public init(
    store: any SyncingStore,
    configuration: ServerConfiguration,
    testSender: any TestSender,
    accounts: AccountService? = nil,
    throttle: SignInThrottle? = nil,
    clock: @escaping @Sendable () -> Date = { Date() },
    showSource: (any ShowSource)? = nil,
    logos: LogoCache? = nil,
    providerSignIn: ProviderSignIn? = nil,
    reminderWords: @escaping @Sendable (UserSettings) -> ReminderWords = { _ in .english }
  ) {
    self.store = store
    self.configuration = configuration
    self.testSender = testSender
    self.accounts =
      accounts ?? AccountService(store: store, hasher: PasswordHasher(cost: configuration.passwordCost))
    self.throttle = throttle ?? SignInThrottle(attempts: store)
    self.clock = clock
    self.showSource = showSource ?? configuration.tmdb.map { TMDBClient(configuration: $0) as any ShowSource }
    // Beside an SQLite database; in memory only on PostgreSQL.
    let folder = configuration.databaseURL == nil ? configuration.databasePath.map { URL(fileURLWithPath: $0 + "-logos") } : nil
    self.logos = logos ?? LogoCache(folder: folder)
    self.providerSignIn = providerSignIn
    self.reminderWords = reminderWords
  }
}

extension AppServices {
  /// The user's day rules and what day it is for them now (SPEC 1).
  package func calendar(for user: User) throws -> (calendar: DayCalendar, today: Day) {
    let calendar = try user.settings.dayCalendar()
    return (calendar, calendar.day(containing: clock()))
  }
}
