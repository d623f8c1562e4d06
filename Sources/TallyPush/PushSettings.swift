import Foundation

/// How the server sends Web Push (RFC 8030, 8291, 8292).
public struct PushSettings: Sendable {
  /// The VAPID `sub` claim: a `mailto:` or `https:` address push services may contact when
  /// this server misbehaves (RFC 8292 §2.1). Apple's service refuses a token without one.
  public var contact = "mailto:tally@localhost"
  /// Lets subscriptions point at loopback over plain http: only for a local stand-in of a
  /// push service in tests (`--allow-loopback-push`). Private and link-local stay refused.
  public var allowLoopback = false

  public init() {}
}
