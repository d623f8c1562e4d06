import Foundation
import TallyCore

/// Passwords and roles: who may sign in to the server, and who owns it.
public protocol AccountRepository: Sendable {
  /// Creates the user and their credential in one write. ``StoreError/conflict(_:)`` when the
  /// id or name is taken, or when `credential` is the owner's and the store has an owner.
  func createAccount(_ user: User, credential: PasswordCredential) async throws -> User

  /// Sets (or replaces) an existing user's credential. ``StoreError/conflict(_:)`` when it would
  /// make a second owner; ``StoreError/notFound(_:)`` when the user does not exist.
  func setCredential(_ credential: PasswordCredential) async throws

  /// The user's credential, or `nil` when they cannot sign in.
  func credential(for user: UUID) async throws -> PasswordCredential?

  /// The owner's user id, or `nil` before anyone has set the server up.
  func ownerID() async throws -> UUID?
}
