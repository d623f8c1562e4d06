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

  /// Counts an attempt for `key` at `now` before its password is checked, or throws
  /// ``AccountError/throttled(retryAfter:)`` when `key` has used up its tries. Counting and
  /// checking are one step under the lock, so parallel attempts cannot all slip past the
  /// check before any failure is recorded (issue 17). The caller then calls ``reset(_:)`` on
  /// success or ``release(_:at:)`` when the attempt ended without a verdict on the password;
  /// a wrong password needs nothing more.
  public func attempt(_ key: String, at now: Date) throws(AccountError) {
    let wait: Int? = failures.withLock { failures in
      let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
      guard recent.count >= limit, let oldest = recent.first else {
        failures[key] = recent + [now]
        return nil
      }
      failures[key] = recent
      return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }
    if let wait { throw .throttled(retryAfter: wait) }
  }

  /// Takes back an attempt counted at `now` that neither succeeded nor failed (the store
  /// could not answer).
  public func release(_ key: String, at now: Date) {
    failures.withLock { failures in
      guard let index = failures[key]?.lastIndex(of: now) else { return }
      failures[key]?.remove(at: index)
      if failures[key]?.isEmpty == true { failures[key] = nil }
    }
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
