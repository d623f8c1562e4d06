import Crypto
import Foundation

/// One POST to a push service (RFC 8030 §5): the encrypted body and the headers it needs.
public struct PushRequest: Sendable, Equatable {
  public var url: URL
  public var headers: [String: String]
  public var body: Data

  public enum Urgency: String, Sendable {
    case veryLow = "very-low", low, normal, high
  }

  /// Encrypts `payload` for the subscription and signs a VAPID token for its push service.
  /// `ttl` is how long the push service may hold the message for an offline device: a
  /// reminder an hour late is not worth showing.
  public static func make(
    payload: Data, endpoint: URL, subscriberKey: Data, authSecret: Data, vapid: VAPIDKey, subject: String,
    now: Date, ttl: Int = 3600, urgency: Urgency = .normal
  ) async throws -> PushRequest {
    let body = try PushEncryption.encrypt(payload, subscriberKey: subscriberKey, authSecret: authSecret)
    let headers = [
      "Authorization": try await vapid.authorization(for: endpoint, subject: subject, now: now),
      "Content-Encoding": "aes128gcm",
      "Content-Type": "application/octet-stream",
      "TTL": String(max(0, ttl)),
      "Urgency": urgency.rawValue,
    ]
    return PushRequest(url: endpoint, headers: headers, body: body)
  }
}
