import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// Settings → Reminders: the calendar feed link (made, shown once, checked, revoked), the
/// webhook (set, removed, tested) and the push devices (tested, removed), as form posts over
/// the same rules as the API's. Subscribing a device needs the browser (pages.js).
struct ReminderSettingsPages {
  let services: AppServices

  struct WebhookForm: Decodable {
    var url: String
    var kind: String
  }

  struct NewFeedLink: Sendable {
    let reminders: String
    let episodes: String
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.post("settings/feed", use: createFeed)
    group.post("settings/feed/revoke", use: revokeFeed)
    group.post("settings/feed/test", use: testFeed)
    group.post("settings/push/{id}/test", use: testPush)
    group.post("settings/push/{id}/remove", use: removePush)
    group.post("settings/webhook", use: saveWebhook)
    group.post("settings/webhook/test", use: testWebhook)
  }

  /// Answers with a page holding the new links, not a redirect: the secret is shown this once.
  @Sendable func createFeed(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let link = try await ChannelActions.newFeedLink(
      for: user, services: services, request: request, context: context)
    let content = NewFeedLink(
      reminders: link.remindersURL ?? link.remindersPath ?? "", episodes: link.episodesURL ?? link.episodesPath ?? "")
    let speech = PageLanguages.speech(for: request, user: context.user)
    return Templates.shared.page(
      "feed-link", title: speech.translator.text("feedLink.title"), section: .settings, user: user, request: request,
      content: content, status: .created, speech: speech)
  }

  @Sendable func revokeFeed(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    _ = try await services.store.deleteFeedToken(for: user.id)
    return .seeOther("/settings?saved=feed-revoked#reminders")
  }

  /// An empty address removes the webhook; anything else must be a web address.
  @Sendable func saveWebhook(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(WebhookForm.self, limit: services.configuration.maxBodySize)
    if form.url.trimmingCharacters(in: .whitespaces).isEmpty {
      _ = try await services.store.deleteWebhook(for: user.id)
      return .seeOther("/settings?saved=webhook-removed#reminders")
    }
    guard let kind = Webhook.Kind(rawValue: form.kind) else {
      throw Problem(.unprocessableContent, "The kind '\(form.kind)' is not ntfy, gotify or json.", field: "kind")
    }
    let webhook = try ChannelActions.webhook(url: form.url, kind: kind, since: services.clock())
    try await services.store.setWebhook(webhook, for: user.id)
    return .seeOther("/settings?saved=webhook#reminders")
  }

  @Sendable func testWebhook(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    guard let webhook = try await services.store.webhook(for: user.id) else {
      throw Problem(.notFound, "Set a webhook address first.")
    }
    let delivered = (try? await services.testSender.sendTestWebhook(to: webhook, words: services.reminderWords(user.settings)))
      .map { (200..<300).contains($0) } ?? false
    return .seeOther("/settings?saved=\(delivered ? "webhook-tested" : "webhook-failed")#reminders")
  }

  /// A feed cannot be sent to: calendar apps fetch it. The check builds the user's feed as a
  /// fetch would and says so when it works.
  @Sendable func testFeed(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    guard try await services.store.feedTokenCreatedAt(for: user.id) != nil else {
      throw Problem(.notFound, "Make a feed link first.")
    }
    _ = try await ChannelActions.remindersFeed(services: services, for: user)
    return .seeOther("/settings?saved=feed-tested#reminders")
  }

  @Sendable func testPush(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    guard let subscription = try await services.store.pushSubscriptions(for: user.id).first(where: { $0.id == id }) else {
      throw Problem(.notFound, "There is no such device here.")
    }
    let result = try await ChannelActions.sendTestPush(to: subscription, of: user, services: services)
    let saved = result.delivered ? "push-tested" : result.removed ? "push-gone" : "push-failed"
    return .seeOther("/settings?saved=\(saved)#reminders")
  }

  @Sendable func removePush(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    guard try await services.store.deletePushSubscription(try context.parameters.requireID("id"), for: user.id) else {
      throw Problem(.notFound, "There is no such device here.")
    }
    return .seeOther("/settings?saved=push-removed#reminders")
  }
}
