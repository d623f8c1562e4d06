import Foundation
import Logging
import TallyCore
import TallyStore

/// One place a user's due reminders go — their webhook, or one browser's push subscription —
/// with its own claims in the store, so each is sent at most once per place and retried on
/// its own (docs/reminders.md).
struct ReminderChannel: Sendable {
  enum Attempt: Equatable {
    case delivered
    case failed(String)
    /// The place no longer exists (a push service's 404 or 410): stop, and forget it.
    case gone(String)
  }

  /// For the log: "webhook", "push device 'Phone'".
  let name: String
  /// Reminders due before then are not sent here.
  let since: Date
  let claim: @Sendable (ReminderDelivery) async throws -> Bool
  let update: @Sendable (ReminderDelivery) async throws -> Void
  let retrying: @Sendable () async throws -> [ReminderDelivery]
  let send: @Sendable (ReminderOccurrence, _ habitName: String) async -> Attempt
  /// What to do once the place is gone; its records go with it.
  let forget: @Sendable () async throws -> Void
}

extension ReminderSender {
  /// Retries that are due, then new occurrences, for one channel: claimed before sending,
  /// dropped when the server saw them too late, cancelled when no longer due.
  func deliver(_ due: [ReminderOccurrence], names: [UUID: String], to channel: ReminderChannel, now: Date) async throws {
    let due = due.filter { $0.instant > channel.since }
    let dueByKey = Dictionary(due.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    for var retry in try await channel.retrying() where retry.nextAttemptAt.map({ $0 <= now }) ?? true {
      guard let occurrence = dueByKey[retry.key] else {
        retry.state = .cancelled
        retry.nextAttemptAt = nil
        retry.updatedAt = now
        try await channel.update(retry)
        logger.info("reminders: \(retry.key) is no longer due; its retries to the \(channel.name) stop")
        continue
      }
      guard try await send(occurrence, name: names[occurrence.habitID] ?? "", record: retry, to: channel, now: now) else { return }
    }

    for occurrence in due {
      let late = now.timeIntervalSince(occurrence.instant)
      if late > policy.maxLateness {
        let dropped = ReminderDelivery(key: occurrence.key, state: .dropped, dueAt: occurrence.instant, attempts: 0, updatedAt: now)
        if try await channel.claim(dropped) {
          logger.warning("reminders: dropped \(occurrence.key) for the \(channel.name), due \(Int(late / 60)) minutes ago while the server was down")
        }
        continue
      }
      let claim = ReminderDelivery(key: occurrence.key, state: .sending, dueAt: occurrence.instant, attempts: 0, updatedAt: now)
      guard try await channel.claim(claim) else { continue }
      guard try await send(occurrence, name: names[occurrence.habitID] ?? "", record: claim, to: channel, now: now) else { return }
    }
  }

  /// One attempt, then the record says what happened: sent, retrying at a later instant, or
  /// failed once the next attempt would come more than an hour after the reminder was due.
  /// `false` when the channel is gone and nothing more should be sent to it.
  private func send(
    _ occurrence: ReminderOccurrence, name: String, record: ReminderDelivery, to channel: ReminderChannel, now: Date
  ) async throws -> Bool {
    var record = record
    record.attempts += 1
    if record.state != .sending {
      record.state = .sending
      record.updatedAt = now
      try await channel.update(record)
    }
    let attempt = await channel.send(occurrence, name)
    record.updatedAt = clock()
    switch attempt {
    case .gone(let reason):
      logger.notice("reminders: the \(channel.name) is gone (\(reason)); it is removed")
      try await channel.forget()
      return false
    case .failed(let failure):
      let next = now.addingTimeInterval(policy.retryWait(afterAttempt: record.attempts))
      if next.timeIntervalSince(occurrence.instant) > policy.maxLateness {
        record.state = .failed
        record.nextAttemptAt = nil
        logger.error("reminders: gave up on \(occurrence.key) to the \(channel.name) after \(record.attempts) attempts: \(failure)")
      } else {
        record.state = .retrying
        record.nextAttemptAt = next
        logger.warning("reminders: \(occurrence.key) to the \(channel.name), attempt \(record.attempts) failed (\(failure)); next at \(next)")
      }
    case .delivered:
      record.state = .sent
      record.nextAttemptAt = nil
      logger.debug("reminders: sent \(occurrence.key) to the \(channel.name)")
    }
    try await channel.update(record)
    return true
  }
}
