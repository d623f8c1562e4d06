import Foundation
import TallyCore

/// One user's data as a whole: read in one transaction, restored in one.
///
/// This is how export and import work, so an export is consistent even while another process
/// writes, and an import that fails for any reason, a crash included, leaves nothing behind.
public protocol SnapshotRepository: Sendable {
  /// Everything the user owns, read in one transaction, in the orders ``UserSnapshot``
  /// documents. ``StoreError/notFound(_:)`` when the user does not exist.
  func snapshot(of user: UUID) async throws -> UserSnapshot

  /// Writes the whole snapshot in one transaction and returns the user who received it: all
  /// of it is stored, or, when anything is refused, nothing changes at all.
  ///
  /// Ids are kept as given (habits, chat messages, shows) unless any user already has one:
  /// that record gets a new id, and episodes follow their show's
  /// (``UserSnapshot/withFreshIDs(where:)``), so a file restores into any account and no
  /// answer reveals what another account holds. Each habit's `sortOrder` is kept.
  /// The user's settings become the snapshot's and so do their prices (an existing user's
  /// earlier prices are removed). Refuses, in this order: a snapshot that breaks a rule
  /// (``UserSnapshot/checked()``); for ``RestoreTarget/newUser(id:name:)`` an invalid name,
  /// then an id or name that is taken (``StoreError/conflict(_:)``); for
  /// ``RestoreTarget/emptyUser(_:)`` a user who does not exist (``StoreError/notFound(_:)``)
  /// or who already has habits, journal entries, chat messages or shows
  /// (``StoreError/conflict(_:)``).
  @discardableResult
  func restore(_ snapshot: UserSnapshot, into target: RestoreTarget) async throws -> User
}
