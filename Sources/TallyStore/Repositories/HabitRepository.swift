import Foundation
import TallyCore

/// A user's habits. Every method names the user, and a habit of another user behaves exactly
/// like one that does not exist (``StoreError/notFound(_:)``).
public protocol HabitRepository: Sendable {
  /// Stores the habit as given, `sortOrder` included (to add one at the end, use
  /// ``appendHabit(_:for:)``). Throws ``StoreError/conflict(_:)`` when
  /// the id is taken and ``StoreError/notFound(_:)`` when the user does not exist.
  func createHabit(_ habit: Habit, for user: UUID) async throws -> Habit

  /// Stores a new habit after the user's others: its `sortOrder` becomes one more than the
  /// largest they have, read in the same transaction, so habits added at the same moment each
  /// get a place of their own. Otherwise as ``createHabit(_:for:)``.
  func appendHabit(_ habit: Habit, for user: UUID) async throws -> Habit

  /// ``createHabit(_:for:)``, or ``appendHabit(_:for:)`` when `last`: what a store implements.
  func insertHabit(_ habit: Habit, for user: UUID, last: Bool) async throws -> Habit

  /// The user's habit with this id.
  func habit(id: UUID, for user: UUID) async throws -> Habit

  /// The user's habits in list order (``StoreOrder/habits(_:_:)``); archived ones only when
  /// asked for.
  func habits(for user: UUID, includingArchived: Bool) async throws -> [Habit]

  /// Replaces every field of the user's habit with the same id; returns it as stored.
  func updateHabit(_ habit: Habit, for user: UUID) async throws -> Habit

  /// Archives (hides from lists, keeps every entry) or brings back a habit.
  func setArchived(_ archived: Bool, habit: UUID, for user: UUID) async throws -> Habit

  /// Deletes the habit and, in the same transaction, all of its entries and reminder
  /// deliveries. The only way habit data is ever deleted.
  func deleteHabit(id: UUID, for user: UUID) async throws

  /// Puts the named habits first, in the given order, and the user's other habits after them
  /// in their current order; every habit's `sortOrder` becomes its position (0, 1, …).
  /// Returns all the user's habits, archived ones included, in the new order. Throws
  /// ``StoreError/notFound(_:)`` for an id that is not the user's and
  /// ``StoreError/invalid(_:)`` when an id is listed twice; then nothing changes.
  func reorderHabits(_ ids: [UUID], for user: UUID) async throws -> [Habit]
}

extension HabitRepository {
  public func createHabit(_ habit: Habit, for user: UUID) async throws -> Habit {
    try await insertHabit(habit, for: user, last: false)
  }

  public func appendHabit(_ habit: Habit, for user: UUID) async throws -> Habit {
    try await insertHabit(habit, for: user, last: true)
  }

  public func archiveHabit(id: UUID, for user: UUID) async throws -> Habit {
    try await setArchived(true, habit: id, for: user)
  }
}
