import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyStore

/// The calendar feed link (made, shown once, revoked) and the webhook (set, read, removed,
/// tried) of the signed-in user: what the Settings page calls (docs/api.md).
struct ReminderChannelController {
  let services: AppServices

  struct WebhookJSON: Encodable, Sendable {
    var url: String?
    var kind: Webhook.Kind?
    var since: Date?
  }

  struct WebhookBody: JSONBody {
    var url: String
    var kind: Webhook.Kind
    static let fields: Set<String> = ["url", "kind"]
  }

  struct WebhookTestJSON: Encodable, Sendable {
    var delivered: Bool
    /// The receiver's status code, when it answered.
    var status: Int?
    var detail: String
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("feeds/reminders", use: feedLink)
    group.post("feeds/reminders", use: createFeedLink)
    group.delete("feeds/reminders", use: revokeFeedLink)
    group.get("settings/webhook", use: webhook)
    group.put("settings/webhook", use: setWebhook)
    group.delete("settings/webhook", use: deleteWebhook)
    group.post("settings/webhook/test", use: testWebhook)
  }

  @Sendable func feedLink(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<FeedLinkJSON> {
    let user = try context.requireUser()
    let createdAt = try await services.store.feedTokenCreatedAt(for: user.id)
    return JSONResponse(FeedLinkJSON(active: createdAt != nil, createdAt: createdAt))
  }

  /// Makes a new secret link, revoking the one before.
  @Sendable func createFeedLink(_ request: Request, context: AppRequestContext) async throws
    -> JSONResponse<FeedLinkJSON>
  {
    let user = try context.requireUser()
    return JSONResponse(try await ChannelActions.newFeedLink(for: user, services: services, request: request, context: context), status: .created)
  }

  @Sendable func revokeFeedLink(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    guard try await services.store.deleteFeedToken(for: user.id) else {
      throw Problem(.notFound, "There is no feed link to revoke.")
    }
    return Response(status: .noContent)
  }

  @Sendable func webhook(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<WebhookJSON> {
    let user = try context.requireUser()
    return JSONResponse(WebhookJSON(try await services.store.webhook(for: user.id)))
  }

  /// Reminders due from now on go to the new address; none due earlier are sent to it.
  @Sendable func setWebhook(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<WebhookJSON> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(WebhookBody.self, limit: services.configuration.maxBodySize)
    let webhook = try ChannelActions.webhook(url: body.url, kind: body.kind, since: services.clock())
    try await services.store.setWebhook(webhook, for: user.id)
    return JSONResponse(WebhookJSON(webhook))
  }

  @Sendable func deleteWebhook(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    guard try await services.store.deleteWebhook(for: user.id) else {
      throw Problem(.notFound, "There is no webhook to remove.")
    }
    return Response(status: .noContent)
  }

  /// Sends one test notification now and says what the receiver answered; a receiver that
  /// fails is the answer, not an error of this request.
  @Sendable func testWebhook(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<WebhookTestJSON> {
    let user = try context.requireUser()
    guard let webhook = try await services.store.webhook(for: user.id) else {
      throw Problem(.notFound, "Set a webhook first: PUT /api/v1/settings/webhook.")
    }
    do {
      let status = try await services.testSender.sendTestWebhook(to: webhook, words: services.reminderWords(user.settings))
      let delivered = (200..<300).contains(status)
      return JSONResponse(
        WebhookTestJSON(
          delivered: delivered, status: status,
          detail: delivered ? "The receiver accepted the test notification." : "The receiver answered \(status)."))
    } catch {
      return JSONResponse(
        WebhookTestJSON(delivered: false, status: nil, detail: "No answer from \(webhook.url.host ?? "the receiver"): \(error.localizedDescription)"))
    }
  }
}

extension ReminderChannelController.WebhookJSON {
  init(_ webhook: Webhook?) {
    self.init(url: webhook?.url.absoluteString, kind: webhook?.kind, since: webhook?.since)
  }
}
