import Foundation
import TallyCore

/// Where a user's due reminders are POSTed, and in which dialect (docs/reminders.md).
public struct Webhook: Hashable, Sendable {
  public enum Kind: String, Codable, Sendable, CaseIterable {
    /// ntfy's JSON publishing: the URL names the topic (`https://ntfy.sh/my-topic`).
    case ntfy
    /// Gotify's message API: the URL carries the app token (`…/message?token=…`).
    case gotify
    /// Tally's own JSON object, for anything else.
    case json
  }

  public let url: URL
  public let kind: Kind
  /// When it was set: reminders due before then are not sent to it.
  public let since: Date

  public static let maxURLLength = 2000

  public init(url text: String, kind: Kind, since: Date) throws(ValidationError) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.utf8.count <= Self.maxURLLength else {
      throw ValidationError(field: "url", rule: "must be at most \(Self.maxURLLength) characters long")
    }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else {
      throw ValidationError(
        field: "url", rule: "must be an http:// or https:// address with a host, not '\(trimmed)'", kind: .notAnAddress,
        values: ["value": trimmed])
    }
    if kind == .ntfy, url.path.split(separator: "/").isEmpty {
      throw ValidationError(field: "url", rule: "must name an ntfy topic, like https://ntfy.sh/my-topic")
    }
    self.url = url
    self.kind = kind
    self.since = StoredInstant.normalized(since)
  }
}

/// One reminder occurrence as the webhook sender keeps it: claimed before it is sent, so a
/// crash or a second server can never send it twice (docs/reminders.md, "at most once").
public struct ReminderDelivery: Hashable, Sendable {
  public enum State: String, Codable, Sendable, CaseIterable {
    /// Claimed and being sent; after a crash it stays so and is never sent again.
    case sending
    case sent
    /// The last attempt failed; another is due at ``ReminderDelivery/nextAttemptAt``.
    case retrying
    /// Gave up: still failing an hour after it was due.
    case failed
    /// It was more than an hour late when the sender first saw it (the server was down).
    case dropped
    /// No longer due when a retry came round (the habit was done meanwhile).
    case cancelled
  }

  public let key: ReminderOccurrenceKey
  public var state: State
  /// The instant the reminder fired at.
  public let dueAt: Date
  public var attempts: Int
  public var nextAttemptAt: Date?
  /// When the state last changed.
  public var updatedAt: Date

  public init(
    key: ReminderOccurrenceKey, state: State, dueAt: Date, attempts: Int, nextAttemptAt: Date? = nil,
    updatedAt: Date
  ) {
    self.key = key
    self.state = state
    self.dueAt = StoredInstant.normalized(dueAt)
    self.attempts = attempts
    self.nextAttemptAt = nextAttemptAt.map(StoredInstant.normalized)
    self.updatedAt = StoredInstant.normalized(updatedAt)
  }
}

/// The secret of a calendar feed link is kept like an API token's: only its hex digest.
public enum FeedTokenHash {
  public static func checked(_ hash: String) throws(ValidationError) -> String {
    try Credential.validHash(hash)
  }
}
