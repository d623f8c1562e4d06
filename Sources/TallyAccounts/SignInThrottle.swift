import Foundation
import TallyStore

/// Counts sign-in attempts per name and client address and closes the door for a while after
/// too many: a password can't be guessed at network speed.
///
/// The count lives in the database (``SignInAttemptRepository``), so every server instance on
/// one database shares it: guesses spread over instances meet one limit, and a restart
/// forgets nothing.
public struct SignInThrottle: Sendable {
  public let attempts: any SignInAttemptRepository
  public let limit: Int
  public let window: TimeInterval

  public init(attempts: any SignInAttemptRepository, limit: Int = 5, window: TimeInterval = 15 * 60) {
    self.attempts = attempts
    self.limit = limit
    self.window = window
  }

  /// Counts an attempt for `key` at `now` before its password is checked, or throws
  /// ``AccountError/throttled(retryAfter:)`` when `key` has used up its tries. The database
  /// counts and checks in one step, so parallel attempts, through any instance, cannot all
  /// slip past the check before any is counted (issue 17). The caller then calls
  /// ``reset(_:)`` on success or ``release(_:)`` when the attempt ended without a verdict on
  /// the password; a wrong password needs nothing more.
  public func attempt(_ key: String, at now: Date) async throws -> SignInAttemptID {
    switch try await attempts.claimSignInAttempt(key, at: now, limit: limit, window: window) {
    case .counted(let attempt):
      return attempt
    case .refused(let until):
      throw AccountError.throttled(retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }
  }

  /// Takes back an attempt that neither succeeded nor failed (the store could not answer).
  /// If the store cannot take it back either, it stays counted until it leaves the window:
  /// erring towards the limit.
  public func release(_ attempt: SignInAttemptID) async {
    try? await attempts.releaseSignInAttempt(attempt)
  }

  /// A successful sign-in clears the count. The sign-in stands even when the store cannot
  /// clear it; the count then runs out with its window.
  public func reset(_ key: String) async {
    try? await attempts.clearSignInAttempts(key)
  }

  /// The key for a name from an address: names compare exactly, as sign-in does. A digest,
  /// so the database keeps neither and a key has one length however long the name.
  public static func key(name: String, address: String) -> String {
    sha256Hex(name.trimmingCharacters(in: .whitespacesAndNewlines) + "\u{0}" + address)
  }
}
