import Foundation
import TallyCore

/// The people a store serves and their settings.
///
/// Users are never deleted: nothing in Tally deletes user data except a person deleting a habit
/// or a show of their own.
public protocol UserRepository: Sendable {
  /// Adds a user; throws ``StoreError/conflict(_:)`` when the id or the name is taken.
  func createUser(_ user: User) async throws -> User

  /// The user with this id, or ``StoreError/notFound(_:)``.
  func user(id: UUID) async throws -> User

  /// The user with exactly this name (after trimming), or ``StoreError/notFound(_:)``.
  func user(named name: String) async throws -> User

  /// Every user, by name.
  func users() async throws -> [User]

  /// Replaces the user's settings after checking them; returns the updated user.
  func updateSettings(_ settings: UserSettings, for user: UUID) async throws -> User
}
