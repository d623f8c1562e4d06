import Foundation
import TallyCore

/// Who signs in through an OpenID Connect provider, and the invitations that let a new person
/// do so.
public protocol IdentityRepository: Sendable {
  /// The user the pair is linked to, or `nil` when it is linked to no one.
  func user(issuer: String, subject: String) async throws -> User?

  /// The pairs linked to `user`, oldest first.
  func identities(for user: UUID) async throws -> [ProviderIdentity]

  /// Links the pair to an existing user. Linking it again to the same user changes nothing;
  /// ``StoreError/conflict(_:)`` when it is another user's, ``StoreError/notFound(_:)`` when
  /// the user does not exist.
  func linkIdentity(_ identity: ProviderIdentity) async throws

  /// Makes the user, their credential and the pair in one write, taking the invitation whose
  /// hash is `invitationHash` (when given) in the same write: ``StoreError/notFound(_:)`` when
  /// there is no such invitation unexpired at the identity's `createdAt`;
  /// ``StoreError/conflict(_:)`` when the name or pair is taken or a second owner would be
  /// made. Nothing is written unless everything is.
  func createAccount(
    _ user: User, credential: PasswordCredential, identity: ProviderIdentity, invitationHash: String?
  ) async throws -> User

  func createInvitation(_ invitation: Invitation) async throws
}
