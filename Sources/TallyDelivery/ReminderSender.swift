import Foundation
import Logging
import ServiceLifecycle
import TallyCore
import TallyPush
import TallyStore

/// Sends each user's due reminders to their webhook and their browsers' push subscriptions,
/// inside `tally serve` (docs/reminders.md).
///
/// Every `interval` it looks at each user with a webhook or a subscription: occurrences due since the last hour
/// are claimed in the store and then POSTed; ones the server missed by more than an hour (it
/// was down) are recorded as dropped and logged, never sent. A claim is a committed row, so an
/// occurrence is sent at most once, across restarts and by any number of servers on one file.
/// Failed POSTs are retried with back-off until an hour after the reminder was due.
public struct ReminderSender: Service {
  public struct Policy: Sendable {
    /// How often to look for due reminders.
    public var interval: Duration = .seconds(20)
    /// A reminder later than this is not worth sending any more.
    public var maxLateness: TimeInterval = 3600
    /// How far back to look for missed occurrences to log as dropped.
    public var lookBack: TimeInterval = 86_400
    /// The wait before retry n (1, 2, …) is `firstRetry · 2^(n−1)`, at most `maxRetryWait`.
    public var firstRetry: TimeInterval = 30
    public var maxRetryWait: TimeInterval = 600

    public init() {}

    func retryWait(afterAttempt attempts: Int) -> TimeInterval {
      min(maxRetryWait, firstRetry * pow(2, Double(max(0, attempts - 1))))
    }
  }

  let store: any Store
  let transport: any WebhookTransport
  let push: PushPoster
  let clock: @Sendable () -> Date
  let sleep: @Sendable (Duration) async throws -> Void
  let policy: Policy
  let logger: Logger
  /// What a reminder says, in the account's language.
  let words: @Sendable (UserSettings) -> ReminderWords

  /// `transport` carries webhook POSTs and push messages alike; `pushKeys` is shared with the
  /// routes that serve the public key.
  public init(
    store: any Store, transport: any WebhookTransport = HTTPWebhookTransport(),
    pushKeys: PushKeys? = nil, pushSettings: PushSettings = PushSettings(),
    clock: @escaping @Sendable () -> Date = { Date() },
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    policy: Policy = Policy(), logger: Logger = Logger(label: "tally.reminders"),
    words: @escaping @Sendable (UserSettings) -> ReminderWords = { _ in .english }
  ) {
    self.store = store
    self.transport = transport
    self.push = PushPoster(
      keys: pushKeys ?? PushKeys(store: store, clock: clock), settings: pushSettings, transport: transport, clock: clock)
    self.clock = clock
    self.sleep = sleep
    self.policy = policy
    self.logger = logger
    self.words = words
  }

  /// Ticks until the service group shuts down (or the task is cancelled), then returns; a
  /// failing tick is logged and the next one runs.
  public func run() async throws {
    // The VAPID key is made on the first start, before any browser asks for it.
    do {
      _ = try await push.keys.key()
    } catch {
      logger.error("reminders: could not read or make the VAPID key: \(error)")
    }
    await cancelWhenGracefulShutdown {
      await loop()
    }
  }

  private func loop() async {
    while !Task.isCancelled {
      await tick()
      do {
        try await self.sleep(policy.interval)
      } catch {
        return
      }
    }
  }

  /// One pass over every user with a webhook or a push subscription, each user in its own
  /// task and each of their channels in its own, so a slow receiver or push service holds up
  /// nothing but itself.
  public func tick() async {
    let now = clock()
    var channels: [UUID: (webhook: Webhook?, subscriptions: [PushSubscription])] = [:]
    do {
      for (user, webhook) in try await store.webhooks() { channels[user, default: (nil, [])].webhook = webhook }
      for (user, subscription) in try await store.allPushSubscriptions() {
        channels[user, default: (nil, [])].subscriptions.append(subscription)
      }
    } catch {
      logger.error("reminders: could not read where reminders go: \(error)")
      return
    }
    await withTaskGroup(of: Void.self) { group in
      for (user, places) in channels {
        group.addTask {
          do {
            try await tick(user: user, webhook: places.webhook, subscriptions: places.subscriptions, now: now)
          } catch {
            logger.error("reminders: user \(user.storeText): \(error)")
          }
        }
      }
    }
  }

  func tick(user: UUID, webhook: Webhook?, subscriptions: [PushSubscription], now: Date) async throws {
    let account = try await store.user(id: user)
    let words = words(account.settings)
    let places =
      (webhook.map { [webhookChannel($0, user: user, words: words)] } ?? [])
      + subscriptions.map { pushChannel($0, user: user, words: words) }
    guard let earliest = places.map(\.since).min() else { return }
    let calendar = try account.settings.dayCalendar()
    let start = max(now.addingTimeInterval(-policy.lookBack), earliest)
    guard start < now else { return }
    let firstDay = calendar.day(containing: start)
    let lastDay = calendar.day(containing: now)
    let habits = try await store.habits(for: user, includingArchived: false)
    let entries = try await store.entries(
      in: calendar.startOfWeek(containing: firstDay)...lastDay.adding(days: 1), for: user)
    // The window is the user's days from the one holding `start` to the one holding `now`;
    // a day past that can still ring before `now` only through the switch hour, hence one more.
    let due = try ReminderSchedule(calendar: calendar).occurrences(
      of: habits, entries: entries, pauses: try await store.pauses(for: user), after: start,
      days: firstDay.days(to: lastDay) + 2
    ).filter { $0.instant <= now }
    let names = Dictionary(habits.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    await withTaskGroup(of: Void.self) { group in
      for channel in places {
        group.addTask {
          do {
            try await deliver(due, names: names, to: channel, now: now)
          } catch {
            logger.error("reminders: user \(user.storeText), \(channel.name): \(error)")
          }
        }
      }
    }
  }

  func webhookChannel(_ webhook: Webhook, user: UUID, words: ReminderWords) -> ReminderChannel {
    ReminderChannel(
      name: "webhook", since: webhook.since,
      claim: { try await store.claimDelivery($0, for: user) },
      update: { try await store.updateDelivery($0, for: user) },
      retrying: { try await store.deliveries(in: .retrying, for: user) },
      send: { occurrence, name in
        do {
          let status = try await transport.post(WebhookMessage.reminder(occurrence, habitName: name, words: words).request(for: webhook))
          return (200..<300).contains(status) ? .delivered : .failed("the receiver answered \(status)")
        } catch {
          return .failed("\(error)")
        }
      },
      forget: {})
  }

  func pushChannel(_ subscription: PushSubscription, user: UUID, words: ReminderWords) -> ReminderChannel {
    let id = subscription.id
    return ReminderChannel(
      name: "push device '\(subscription.name)'", since: subscription.createdAt,
      claim: { try await store.claimPushDelivery($0, to: id, for: user) },
      update: { try await store.updatePushDelivery($0, to: id, for: user) },
      retrying: { try await store.pushDeliveries(in: .retrying, to: id, for: user) },
      send: { occurrence, name in
        switch await push.post(.reminder(occurrence, habitName: name, words: words), to: subscription) {
        case .delivered: .delivered
        case .gone(let status): .gone("the push service answered \(status)")
        case .failed(let reason): .failed(reason)
        }
      },
      forget: { _ = try await store.deletePushSubscription(id, for: user) })
  }
}
