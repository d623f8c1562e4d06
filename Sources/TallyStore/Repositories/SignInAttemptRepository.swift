import Foundation

/// Sign-in attempts counted per name and client address in the database, so every server
/// instance on it shares one count: guesses spread over several instances meet one limit.
///
/// A key is a digest the caller makes of the name and address (at most 128 characters); the
/// store never learns either.
public protocol SignInAttemptRepository: Sendable {
  /// Counts an attempt for `key` at `now`, unless `limit` attempts of `key` are already counted
  /// after `now - window`: then nothing is counted and the answer says when the oldest of them
  /// leaves the window. Checking and counting are one atomic step in the database, so
  /// parallel attempts through any number of instances never count more than `limit`.
  /// Attempts of any key that have left the window are forgotten on the way, so the rows kept
  /// stay bounded by the attempts of the last `window`.
  func claimSignInAttempt(_ key: String, at now: Date, limit: Int, window: TimeInterval) async throws
    -> SignInClaim

  /// Takes back a counted attempt that ended without a verdict on the password (the store
  /// could not answer). One already forgotten is not an error.
  func releaseSignInAttempt(_ attempt: SignInAttemptID) async throws

  /// Forgets every attempt of `key`: a successful sign-in clears its count.
  func clearSignInAttempts(_ key: String) async throws
}

/// What a claimed attempt got.
public enum SignInClaim: Hashable, Sendable {
  /// Counted: the password may be checked.
  case counted(SignInAttemptID)
  /// Refused: the key has used up its attempts until that instant.
  case refused(until: Date)
}

/// One counted attempt, as the store knows it.
public struct SignInAttemptID: Hashable, Sendable {
  public let rawValue: Int64

  public init(_ rawValue: Int64) {
    self.rawValue = rawValue
  }
}
