import Foundation
import TallyCore

/// API tokens and browser sessions, found by the hash of their secret.
///
/// Lookups by hash are how a request finds its user, so they are the one way in that does not
/// start from a user id; everything else names the user.
public protocol CredentialRepository: Sendable {
  /// ``StoreError/conflict(_:)`` when the id or hash is taken, ``StoreError/notFound(_:)``
  /// when the user does not exist.
  func createAPIToken(_ token: APIToken) async throws -> APIToken

  /// The token with this hash, if it exists and has not expired at `now`.
  func apiToken(hash: String, at now: Date) async throws -> APIToken?

  /// The user's tokens, newest first.
  func apiTokens(for user: UUID) async throws -> [APIToken]

  /// Revokes one of the user's tokens.
  func deleteAPIToken(id: UUID, for user: UUID) async throws

  func createSession(_ session: BrowserSession) async throws -> BrowserSession

  /// The session with this hash, if it exists and has not expired at `now`.
  func session(hash: String, at now: Date) async throws -> BrowserSession?

  /// Signs one of the user's sessions out.
  func deleteSession(id: UUID, for user: UUID) async throws

  /// Removes every user's sessions that expired at or before `now`; returns how many.
  func deleteSessions(expiredAt now: Date) async throws -> Int
}
