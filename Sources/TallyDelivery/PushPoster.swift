import Foundation
import TallyCore
import TallyPush
import TallyStore

/// The server's VAPID key, read from the store (made there on first use) and then kept.
public actor PushKeys {
  let store: any Store
  let clock: @Sendable () -> Date
  private var cached: VAPIDKey?

  public init(store: any Store, clock: @escaping @Sendable () -> Date) {
    self.store = store
    self.clock = clock
  }

  public func key() async throws -> VAPIDKey {
    if let cached { return cached }
    let raw = try await store.vapidPrivateKey(orMake: { VAPIDKey().rawRepresentation }, createdAt: clock())
    let key = try VAPIDKey(rawRepresentation: raw)
    cached = key
    return key
  }
}

/// Encrypts a message for one subscription and POSTs it with a VAPID token (docs/reminders.md).
public struct PushPoster: Sendable {
  package let keys: PushKeys
  let settings: PushSettings
  let transport: any WebhookTransport
  let clock: @Sendable () -> Date

  public init(
    keys: PushKeys, settings: PushSettings, transport: any WebhookTransport, clock: @escaping @Sendable () -> Date
  ) {
    self.keys = keys
    self.settings = settings
    self.transport = transport
    self.clock = clock
  }

  public func post(_ message: WebhookMessage, to subscription: PushSubscription) async -> PushOutcome {
    // Checked again at sending: the setting may have changed since the browser subscribed.
    if let refusal = PushEndpointPolicy(allowLoopback: settings.allowLoopback).refusal(subscription.endpoint) {
      return .failed("the endpoint \(refusal)")
    }
    let request: PushRequest
    do {
      request = try await PushRequest.make(
        payload: message.pushPayload, endpoint: subscription.endpoint, subscriberKey: subscription.p256dh,
        authSecret: subscription.auth, vapid: try await keys.key(), subject: settings.contact, now: clock(),
        urgency: message.type == "test" ? .high : .normal)
    } catch {
      return .failed("the message could not be prepared: \(error)")
    }
    do {
      let status = try await transport.post(WebhookRequest(url: request.url, headers: request.headers, body: request.body))
      switch status {
      case 200..<300: return .delivered(status)
      case 404, 410: return .gone(status)
      default: return .failed("the push service answered \(status)")
      }
    } catch {
      // The client's own words ("deadlineExceeded", "connection refused"): a localized description
      // of an HTTPClientError says only that the operation could not be completed.
      return .failed("no answer from \(subscription.endpoint.host ?? "the push service"): \(error)")
    }
  }
}

extension WebhookMessage {
  /// What the service worker reads (Resources/web/sw.js): the notification's title and body,
  /// a tag so a repeat replaces rather than stacks, and the page a tap opens.
  var pushPayload: Data {
    var fields: [String: Any] = ["type": type, "title": title, "body": message, "url": type == "test" ? "/settings" : "/today"]
    fields["tag"] = key?.description ?? "tally-test"
    fields["habitId"] = habitId
    fields["day"] = day?.description
    fields["time"] = time?.description
    fields["key"] = key?.description
    return (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  }
}
