import Foundation
import Synchronization

/// Counts failed sign-ins per name and client address and closes the door for a while after
/// too many: a password can't be guessed at network speed.
///
/// It lives in the server's memory: a restart forgets it, which costs an attacker a restart
/// they cannot cause. Several instances each keep their own count (docs/server.md).
public final class SignInThrottle: Sendable {
  public let limit: Int
  public let window: TimeInterval
  private let failures = Mutex<[String: [Date]]>([:])

  public init(limit: Int = 5, window: TimeInterval = 15 * 60) {
    self.limit = limit
    self.window = window
  }

  /// Throws ``AccountError/throttled(retryAfter:)`` when `key` has used up its tries at `now`.
  public func check(_ key: String, at now: Date) throws(AccountError) {
    let wait: Int? = failures.withLock { failures in
      let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
      failures[key] = recent.isEmpty ? nil : recent
      guard recent.count >= limit, let oldest = recent.first else { return nil }
      return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }
    if let wait { throw .throttled(retryAfter: wait) }
  }

  public func recordFailure(_ key: String, at now: Date) {
    failures.withLock { $0[key, default: []].append(now) }
  }

  /// A successful sign-in clears the count.
  public func reset(_ key: String) {
    _ = failures.withLock { $0.removeValue(forKey: key) }
  }

  /// The key for a name from an address: names compare exactly, as sign-in does.
  public static func key(name: String, address: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines) + "\u{0}" + address
  }
}
