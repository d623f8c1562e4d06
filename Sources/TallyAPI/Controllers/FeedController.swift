import Foundation
import Hummingbird
import NIOCore
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// The calendar feeds a calendar app subscribes to: no session, the secret in the path opens
/// one user's feeds (docs/reminders.md). Unknown or revoked secrets get a plain 404.
struct FeedController {
  let services: AppServices

  /// Episodes from a month back to a year ahead: enough to look back at and plan with.
  static let episodesBack = 31
  static let episodesAhead = 366

  func addRoutes(to router: Router<AppRequestContext>) {
    router.get("feeds/{token}/reminders.ics", use: reminders)
    router.get("feeds/{token}/episodes.ics", use: episodes)
  }

  @Sendable func reminders(_ request: Request, context: AppRequestContext) async throws -> Response {
    Self.calendar(try await ChannelActions.remindersFeed(services: services, for: try await owner(context)))
  }

  @Sendable func episodes(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try await owner(context)
    let time = try services.time(for: user)
    let shows = try await services.store.shows(for: user.id).filter { $0.status == .watching }
    let watching = Set(shows.map(\.id))
    let episodes = try await services.store.episodes(
      airingIn: time.today.adding(days: -Self.episodesBack)...time.today.adding(days: Self.episodesAhead), for: user.id
    ).filter { watching.contains($0.showID) }
    return Self.calendar(CalendarFeeds.episodes(
      episodes, shows: shows, stamp: time.now, words: services.reminderWords(user.settings)))
  }

  private func owner(_ context: AppRequestContext) async throws -> User {
    let secret = context.parameters.get("token") ?? ""
    guard secret.hasPrefix(ChannelActions.feedTokenPrefix),
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
