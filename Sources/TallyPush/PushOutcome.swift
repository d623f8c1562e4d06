import Foundation

/// What a push service made of one message.
public enum PushOutcome: Equatable, Sendable {
  case delivered(Int)
  /// 404 or 410: the browser unsubscribed or the subscription expired (RFC 8030 §7.3);
  /// the subscription is removed.
  case gone(Int)
  /// Anything else: another status, no answer, a time-out, or an endpoint now refused.
  case failed(String)
}
