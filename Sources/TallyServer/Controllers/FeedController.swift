import Foundation
import Hummingbird
import NIOCore
import TallyAccounts
import TallyCore
import TallyStore
import TallyWire

/// The calendar feeds a calendar app subscribes to: no session, the secret in the path opens
/// one user's feeds (docs/reminders.md). Unknown or revoked secrets get a plain 404.
struct FeedController {
  let services: AppServices

  /// How far ahead the reminder feed reaches: each refresh recomputes it, so suppression
  /// (a habit done today) shows on the next fetch.
  static let reminderDays = 14
  /// Episodes from a month back to a year ahead: enough to look back at and plan with.
  static let episodesBack = 31
  static let episodesAhead = 366

  func addRoutes(to router: Router<AppRequestContext>) {
    router.get("feeds/{token}/reminders.ics", use: reminders)
    router.get("feeds/{token}/episodes.ics", use: episodes)
  }

  @Sendable func reminders(_ request: Request, context: AppRequestContext) async throws -> Response {
    Self.calendar(try await remindersFeed(for: try await owner(context)))
  }

  /// The reminders feed's text for `user`; Settings' "Check the feed" builds it too.
  func remindersFeed(for user: User) async throws -> String {
    let time = try services.time(for: user)
    let habits = try await services.store.habits(for: user.id, includingArchived: false)
    let occurrences = try await ReminderJSON.occurrences(
      of: habits, from: services.store, user: user.id, calendar: time.calendar, now: time.now,
      days: Self.reminderDays)
    return CalendarFeeds.reminders(occurrences, habits: habits, stamp: time.now)
  }

  @Sendable func episodes(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try await owner(context)
    let time = try services.time(for: user)
    let shows = try await services.store.shows(for: user.id).filter { $0.status == .watching }
    let watching = Set(shows.map(\.id))
    let episodes = try await services.store.episodes(
      airingIn: time.today.adding(days: -Self.episodesBack)...time.today.adding(days: Self.episodesAhead), for: user.id
    ).filter { watching.contains($0.showID) }
    return Self.calendar(CalendarFeeds.episodes(episodes, shows: shows, stamp: time.now))
  }

  private func owner(_ context: AppRequestContext) async throws -> User {
    let secret = context.parameters.get("token") ?? ""
    guard secret.hasPrefix(ReminderChannelController.feedTokenPrefix),
      let id = try await services.store.feedOwner(hash: SecretToken(secret: secret).hash)
    else {
      throw Problem(.notFound, "There is no calendar feed at this address: the link is wrong or was revoked.")
    }
    return try await services.store.user(id: id)
  }

  static func calendar(_ text: String) -> Response {
    Response(
      status: .ok,
      headers: [
        .contentType: "text/calendar; charset=utf-8",
        .cacheControl: "private, max-age=300",
      ],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
