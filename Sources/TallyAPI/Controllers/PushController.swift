import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyPush
import TallyStore

/// Web Push for the signed-in user: the server's public key to subscribe with, and the
/// browsers that receive their reminders (docs/api.md, docs/reminders.md).
struct PushController {
  let services: AppServices

  struct KeyJSON: Encodable, Sendable {
    /// The VAPID public key, base64url: `applicationServerKey` for `pushManager.subscribe`.
    var publicKey: String
  }

  struct SubscriptionJSON: Encodable, Sendable {
    var id: UUID
    var name: String
    var endpoint: String
    var createdAt: Date
  }

  struct SubscriptionList: Encodable, Sendable {
    var subscriptions: [SubscriptionJSON]
  }

  /// What `PushSubscription.toJSON()` gives in a browser, and a name for the device.
  struct SubscriptionBody: JSONBody {
    var endpoint: String
    var keys: Keys
    var name: String
    static let fields: Set<String> = ["endpoint", "keys", "name"]

    struct Keys: Decodable, Sendable {
      var p256dh: String
      var auth: String

      enum CodingKeys: String, CodingKey, CaseIterable { case p256dh, auth }

      /// Strict like the body around it: an unknown key inside `keys` is named, not ignored.
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { CodingKeys(rawValue: $0) == nil }) {
          throw ValidationError(field: "keys.\(unknown)", rule: "is not known here; the known fields are 'p256dh' and 'auth'")
        }
        let known = try decoder.container(keyedBy: CodingKeys.self)
        p256dh = try known.decode(String.self, forKey: .p256dh)
        auth = try known.decode(String.self, forKey: .auth)
      }
    }

    struct AnyKey: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("push/key", use: key)
    group.get("push/subscriptions", use: list)
    group.post("push/subscriptions", use: subscribe)
    group.delete("push/subscriptions/{id}", use: unsubscribe)
    group.post("push/subscriptions/{id}/test", use: test)
  }

  @Sendable func key(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<KeyJSON> {
    _ = try context.requireUser()
    return JSONResponse(KeyJSON(publicKey: try await services.testSender.pushPublicKey()))
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SubscriptionList> {
    let user = try context.requireUser()
    let all = try await services.store.pushSubscriptions(for: user.id)
    return JSONResponse(SubscriptionList(subscriptions: all.map(SubscriptionJSON.init)))
  }

  /// Adds this browser, or refreshes it when it subscribed before. Reminders due from now on
  /// are pushed to it.
  @Sendable func subscribe(_ request: Request, context: AppRequestContext) async throws
    -> JSONResponse<SubscriptionJSON>
  {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(SubscriptionBody.self, limit: services.configuration.maxBodySize)
    let subscription = try Self.subscription(body, settings: services.configuration.push, now: services.clock())
    let stored = try await services.store.addPushSubscription(subscription, for: user.id)
    return JSONResponse(SubscriptionJSON(stored), status: .created)
  }

  /// The subscription `body` describes, or a 422 naming the field that is wrong and how.
  static func subscription(_ body: SubscriptionBody, settings: PushSettings, now: Date) throws -> PushSubscription {
    func refuse(_ field: String, _ sentence: String) -> Problem {
      Problem(.unprocessableContent, sentence, field: field)
    }
    guard let p256dh = Base64URL.decode(body.keys.p256dh) else {
      throw refuse("keys.p256dh", "The keys.p256dh must be base64url text (the browser's subscription.toJSON().keys.p256dh).")
    }
    guard let auth = Base64URL.decode(body.keys.auth) else {
      throw refuse("keys.auth", "The keys.auth must be base64url text (the browser's subscription.toJSON().keys.auth).")
    }
    let subscription: PushSubscription
    do {
      subscription = try PushSubscription(
        id: UUID(), endpoint: body.endpoint, p256dh: p256dh, auth: auth, name: body.name, createdAt: now)
    } catch {
      throw refuse(error.field, "The \(error.field) \(error.rule).")
    }
    if let refusal = PushEndpointPolicy(allowLoopback: settings.allowLoopback).refusal(subscription.endpoint) {
      throw refuse("endpoint", "The endpoint \(refusal).")
    }
    // A 65-byte key can still be off the curve; encrypting a test message finds out now, not
    // at the first reminder.
    do {
      _ = try PushEncryption.encrypt(Data(), subscriberKey: p256dh, authSecret: auth)
    } catch {
      throw refuse("keys.p256dh", "The keys.p256dh is not a point on the P-256 curve.")
    }
    return subscription
  }

  @Sendable func unsubscribe(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    guard try await services.store.deletePushSubscription(id, for: user.id) else {
      throw Problem(.notFound, "There is no push subscription with id \(id.storeText).")
    }
    return Response(status: .noContent)
  }

  /// Pushes one test notification now; what the push service did is the answer, not an
  /// error of this request. A 404 or 410 removes the subscription, as for reminders.
  @Sendable func test(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<PushTestJSON> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    guard let subscription = try await services.store.pushSubscriptions(for: user.id).first(where: { $0.id == id }) else {
      throw Problem(.notFound, "There is no push subscription with id \(id.storeText).")
    }
    return JSONResponse(try await ChannelActions.sendTestPush(to: subscription, of: user, services: services))
  }
}

extension PushController.SubscriptionJSON {
  init(_ subscription: PushSubscription) {
    self.init(
      id: subscription.id, name: subscription.name, endpoint: subscription.endpoint.absoluteString,
      createdAt: subscription.createdAt)
  }
}
