import Foundation
import Logging
import ServiceLifecycle
import TallyCore
import TallyStore

/// Sends each user's due reminders to their webhook, inside `tally serve` (docs/reminders.md).
///
/// Every `interval` it looks at each user with a webhook: occurrences due since the last hour
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
  let clock: @Sendable () -> Date
  let sleep: @Sendable (Duration) async throws -> Void
  let policy: Policy
  let logger: Logger

  public init(
    store: any Store, transport: any WebhookTransport = URLSessionWebhookTransport(),
    clock: @escaping @Sendable () -> Date = { Date() },
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    policy: Policy = Policy(), logger: Logger = Logger(label: "tally.reminders")
  ) {
    self.store = store
    self.transport = transport
    self.clock = clock
    self.sleep = sleep
    self.policy = policy
    self.logger = logger
  }

  /// Ticks until the service group shuts down (or the task is cancelled), then returns; a
  /// failing tick is logged and the next one runs.
  public func run() async throws {
    try await cancelWhenGracefulShutdown {
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

  /// One pass over every user with a webhook, each user in its own task so a slow receiver
  /// does not hold the others up.
  public func tick() async {
    let now = clock()
    let webhooks: [(user: UUID, webhook: Webhook)]
    do {
      webhooks = try await store.webhooks()
    } catch {
      logger.error("reminders: could not read the webhooks: \(error)")
      return
    }
    await withTaskGroup(of: Void.self) { group in
      for (user, webhook) in webhooks {
        group.addTask {
          do {
            try await tick(user: user, webhook: webhook, now: now)
          } catch {
            logger.error("reminders: user \(user.storeText): \(error)")
          }
        }
      }
    }
  }

  func tick(user: UUID, webhook: Webhook, now: Date) async throws {
    let account = try await store.user(id: user)
    let calendar = try account.settings.dayCalendar()
    let start = max(now.addingTimeInterval(-policy.lookBack), webhook.since)
    guard start < now else { return }
    let firstDay = calendar.day(containing: start)
    let lastDay = calendar.day(containing: now)
    let habits = try await store.habits(for: user, includingArchived: false)
    let entries = try await store.entries(
      in: calendar.startOfWeek(containing: firstDay)...lastDay.adding(days: 1), for: user)
    // The window is the user's days from the one holding `start` to the one holding `now`;
    // a day past that can still ring before `now` only through the switch hour, hence one more.
    let due = try ReminderSchedule(calendar: calendar).occurrences(
      of: habits, entries: entries, after: start, days: firstDay.days(to: lastDay) + 2
    ).filter { $0.instant <= now }
    let names = Dictionary(habits.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    let dueByKey = Dictionary(due.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    for var retry in try await store.deliveries(in: .retrying, for: user)
    where retry.nextAttemptAt.map({ $0 <= now }) ?? true {
      guard let occurrence = dueByKey[retry.key] else {
        retry.state = .cancelled
        retry.nextAttemptAt = nil
        retry.updatedAt = now
        try await store.updateDelivery(retry, for: user)
        logger.info("reminders: \(retry.key) is no longer due; its retries stop")
        continue
      }
      try await send(occurrence, name: names[occurrence.habitID] ?? "", record: retry, webhook: webhook, user: user, now: now)
    }

    for occurrence in due {
      let late = now.timeIntervalSince(occurrence.instant)
      if late > policy.maxLateness {
        let dropped = ReminderDelivery(key: occurrence.key, state: .dropped, dueAt: occurrence.instant, attempts: 0, updatedAt: now)
        if try await store.claimDelivery(dropped, for: user) {
          logger.warning("reminders: dropped \(occurrence.key), due \(Int(late / 60)) minutes ago while the server was down")
        }
        continue
      }
      let claim = ReminderDelivery(key: occurrence.key, state: .sending, dueAt: occurrence.instant, attempts: 0, updatedAt: now)
      guard try await store.claimDelivery(claim, for: user) else { continue }
      try await send(occurrence, name: names[occurrence.habitID] ?? "", record: claim, webhook: webhook, user: user, now: now)
    }
  }

  /// One attempt, then the record says what happened: sent, retrying at a later instant, or
  /// failed once the next attempt would come more than an hour after the reminder was due.
  private func send(
    _ occurrence: ReminderOccurrence, name: String, record: ReminderDelivery, webhook: Webhook, user: UUID, now: Date
  ) async throws {
    var record = record
    record.attempts += 1
    if record.state != .sending {
      record.state = .sending
      record.updatedAt = now
      try await store.updateDelivery(record, for: user)
    }
    let request = WebhookMessage.reminder(occurrence, habitName: name).request(for: webhook)
    let failure: String?
    do {
      let status = try await transport.post(request)
      failure = (200..<300).contains(status) ? nil : "the receiver answered \(status)"
    } catch {
      failure = "\(error)"
    }
    record.updatedAt = clock()
    if let failure {
      let next = now.addingTimeInterval(policy.retryWait(afterAttempt: record.attempts))
      if next.timeIntervalSince(occurrence.instant) > policy.maxLateness {
        record.state = .failed
        record.nextAttemptAt = nil
        logger.error("reminders: gave up on \(occurrence.key) after \(record.attempts) attempts: \(failure)")
      } else {
        record.state = .retrying
        record.nextAttemptAt = next
        logger.warning("reminders: \(occurrence.key) attempt \(record.attempts) failed (\(failure)); next at \(next)")
      }
    } else {
      record.state = .sent
      record.nextAttemptAt = nil
      logger.debug("reminders: sent \(occurrence.key)")
    }
    try await store.updateDelivery(record, for: user)
  }
}
