import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyCore
import TallyPush
import TallyStore
import TallyWire

/// What the API and the Settings page both do with reminder channels: make a feed link,
/// check a webhook address, send a test push, build the reminders feed.
package enum ChannelActions {
  package static let feedTokenPrefix = "tlyf_"

  /// How far ahead the reminder feed reaches: each refresh recomputes it, so suppression
  /// (a habit done today) shows on the next fetch.
  package static let reminderDays = 14

  /// A new feed secret for `user` (the old one stops working), with the paths and, when the
  /// request names its host, the URLs to paste into a calendar app. Shared with Settings.
  package static func newFeedLink(
    for user: User, services: AppServices, request: Request, context: AppRequestContext
  ) async throws -> FeedLinkJSON {
    var generator = SystemRandomNumberGenerator()
    let token = SecretToken.generate(prefix: feedTokenPrefix, using: &generator)
    let now = services.clock()
    try await services.store.setFeedToken(hash: token.hash, createdAt: now, for: user.id)
    let reminders = "/feeds/\(token.secret)/reminders.ics"
    let episodes = "/feeds/\(token.secret)/episodes.ics"
    let base = baseURL(of: request, context: context)
    return FeedLinkJSON(
      active: true, createdAt: StoredInstant.normalized(now), token: token.secret, remindersPath: reminders,
      episodesPath: episodes, remindersURL: base.map { $0 + reminders }, episodesURL: base.map { $0 + episodes })
  }

  /// The webhook at `url`, or a 422 naming what is wrong with the address. Shared with Settings.
  package static func webhook(url: String, kind: Webhook.Kind, since: Date) throws -> Webhook {
    do {
      return try Webhook(url: url, kind: kind, since: since)
    } catch {
      throw Problem(.unprocessableContent, "The webhook \(error.description).", field: error.field)
    }
  }

  /// Where the client reached us, so the link can be pasted as is: the scheme they used (as a
  /// trusted proxy says) and the Host header. `nil` without a Host.
  package static func baseURL(of request: Request, context: AppRequestContext) -> String? {
    guard let host = request.headers[HTTPField.Name("Host")!] ?? request.head.authority, !host.isEmpty else {
      return nil
    }
    return context.scheme + "://" + host
  }

  /// Pushes one test notification now; a 404 or 410 removes the subscription, as for
  /// reminders. Shared with Settings' "send a test".
  package static func sendTestPush(to subscription: PushSubscription, of user: User, services: AppServices) async throws -> PushTestJSON {
    switch await services.testSender.sendTestPush(to: subscription, words: services.reminderWords(user.settings)) {
    case .delivered(let status):
      return PushTestJSON(delivered: true, status: status, removed: false, detail: "The push service accepted the test notification for '\(subscription.name)'.")
    case .gone(let status):
      _ = try await services.store.deletePushSubscription(subscription.id, for: user.id)
      return PushTestJSON(
        delivered: false, status: status, removed: true,
        detail: "The push service answered \(status): '\(subscription.name)' no longer takes notifications, so it was removed.")
    case .failed(let reason):
      return PushTestJSON(delivered: false, status: nil, removed: false, detail: "The test notification was not delivered: \(reason).")
    }
  }

  /// The reminders feed's text for `user`; Settings' "Check the feed" builds it too.
  package static func remindersFeed(services: AppServices, for user: User) async throws -> String {
    let time = try services.time(for: user)
    let habits = try await services.store.habits(for: user.id, includingArchived: false)
    let occurrences = try await ReminderJSON.occurrences(
      of: habits, from: services.store, user: user.id, calendar: time.calendar, now: time.now,
      days: reminderDays)
    return CalendarFeeds.reminders(
      occurrences, habits: habits, stamp: time.now, words: services.reminderWords(user.settings))
  }
}

/// A calendar feed link, as the API answers and Settings shows it.
package struct FeedLinkJSON: Encodable, Sendable {
  package var active: Bool
  package var createdAt: Date?
  /// Only in the answer to the request that made the link: the secret is kept hashed.
  package var token: String?
  package var remindersPath: String?
  package var episodesPath: String?
  package var remindersURL: String?
  package var episodesURL: String?

  package init(
    active: Bool, createdAt: Date?, token: String? = nil, remindersPath: String? = nil, episodesPath: String? = nil,
    remindersURL: String? = nil, episodesURL: String? = nil
  ) {
    (self.active, self.createdAt, self.token) = (active, createdAt, token)
    (self.remindersPath, self.episodesPath) = (remindersPath, episodesPath)
    (self.remindersURL, self.episodesURL) = (remindersURL, episodesURL)
  }
}

/// What became of a test push.
package struct PushTestJSON: Encodable, Sendable {
  package var delivered: Bool
  package var status: Int?
  /// Whether the push service said the subscription no longer exists, so it was removed.
  package var removed: Bool
  package var detail: String
}
