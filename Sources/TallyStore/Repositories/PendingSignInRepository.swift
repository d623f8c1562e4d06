import Foundation

/// Sign-ins through the provider begun and not yet finished, kept where every instance on the
/// database finds them: the callback may reach another instance than the start.
public protocol PendingSignInRepository: Sendable {
  /// Keeps `body` under `key`, first forgetting those older than `lifetime` and, when
  /// `capacity` are kept, the oldest: anyone may begin a sign-in, so the table must not grow
  /// with them.
  func keepPendingSignIn(key: String, body: String, at now: Date, lifetime: TimeInterval, capacity: Int) async throws

  /// The body kept under `key`, removed in the same write so no one takes it twice; `nil`
  /// when there is none younger than `lifetime`.
  func takePendingSignIn(key: String, at now: Date, lifetime: TimeInterval) async throws -> String?
}
