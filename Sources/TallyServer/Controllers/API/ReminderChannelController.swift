import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyCore
import TallyStore

/// The calendar feed link (made, shown once, revoked) and the webhook (set, read, removed,
/// tried) of the signed-in user: what the Settings page calls (docs/api.md).
struct ReminderChannelController {
  let services: AppServices

  struct FeedLinkJSON: Encodable, Sendable {
    var active: Bool
    var createdAt: Date?
    /// Only in the answer to the request that made the link: the secret is kept hashed.
    var token: String?
    var remindersPath: String?
    var episodesPath: String?
    var remindersURL: String?
    var episodesURL: String?
  }

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

  static let feedTokenPrefix = "tlyf_"

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
    return JSONResponse(try await Self.newFeedLink(for: user, services: services, request: request, context: context), status: .created)
  }

  /// A new feed secret for `user` (the old one stops working), with the paths and, when the
  /// request names its host, the URLs to paste into a calendar app. Shared with Settings.
  static func newFeedLink(
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
    let webhook = try Self.webhook(url: body.url, kind: body.kind, since: services.clock())
    try await services.store.setWebhook(webhook, for: user.id)
    return JSONResponse(WebhookJSON(webhook))
  }

  /// The webhook at `url`, or a 422 naming what is wrong with the address. Shared with Settings.
  static func webhook(url: String, kind: Webhook.Kind, since: Date) throws -> Webhook {
    do {
      return try Webhook(url: url, kind: kind, since: since)
    } catch {
      throw Problem(.unprocessableContent, "The webhook \(error.description).", field: error.field)
    }
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
    let request = WebhookMessage.test(at: services.clock()).request(for: webhook)
    do {
      let status = try await services.webhookTransport.post(request)
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

  /// Where the client reached us, so the link can be pasted as is: the scheme they used (as a
  /// trusted proxy says) and the Host header. `nil` without a Host.
  static func baseURL(of request: Request, context: AppRequestContext) -> String? {
    guard let host = request.headers[HTTPField.Name("Host")!] ?? request.head.authority, !host.isEmpty else {
      return nil
    }
    return context.scheme + "://" + host
  }
}

extension ReminderChannelController.WebhookJSON {
  init(_ webhook: Webhook?) {
    self.init(url: webhook?.url.absoluteString, kind: webhook?.kind, since: webhook?.since)
  }
}
