import Foundation
import TallyCore

/// A user's pauses: of one habit, or of all of them (a vacation). Paused days are neutral for
/// every statistic unless completed and never due (SPEC 2).
public protocol PauseRepository: Sendable {
  /// The user's pauses, by first day, then by id.
  func pauses(for user: UUID) async throws -> [Pause]

  /// Stores a new pause, or replaces the user's pause with the same id (a resume, an edited
  /// end). Refuses, changing nothing: a pause that breaks its rules (``StoreError/invalid(_:)``),
  /// one that shares a day with another pause of the same habit, or of all habits when it is
  /// one of all (``StoreError/invalid(_:)`` naming `from`), an id another user holds
  /// (``StoreError/conflict(_:)``), and a habit that is not the user's
  /// (``StoreError/notFound(_:)``). The check runs inside the write's transaction, which
  /// each store keeps to one at a time per user.
  @discardableResult
  func savePause(_ pause: Pause, for user: UUID) async throws -> Pause

  /// Deletes one of the user's pauses (``StoreError/notFound(_:)`` when there is none).
  func deletePause(id: UUID, for user: UUID) async throws
}

extension PauseRepository {
  /// Ends the pause of `habit` (`nil`: the pause of all habits) that covers `day` or starts
  /// after it: its last day becomes the day before `day`, and one that had not started by then
  /// is deleted. Returns what changed: the pauses kept (ended) and the ids deleted.
  public func resume(habit: UUID?, on day: Day, for user: UUID) async throws -> (ended: [Pause], deleted: [UUID]) {
    var ended: [Pause] = []
    var deleted: [UUID] = []
    for pause in try await pauses(for: user) where pause.habitID == habit && pause.days.upperBound >= day {
      if let kept = pause.resumed(on: day) {
        ended.append(try await savePause(kept, for: user))
      } else {
        try await deletePause(id: pause.id, for: user)
        deleted.append(pause.id)
      }
    }
    return (ended, deleted)
  }

  /// The pauses that cover `habit`: its own and those of all habits, merged.
  public func pausedDays(of habit: UUID, for user: UUID) async throws -> PausedDays {
    PausedDays(try await pauses(for: user), habit: habit)
  }
}

/// The rule every store checks before it writes a pause, with the user's other pauses read in
/// the same transaction.
public enum PauseRules {
  public static func check(_ pause: Pause, against others: [Pause]) throws(StoreError) -> Pause {
    let pause = try StoreError.validating { () throws(ValidationError) in try pause.validated() }
    if let clash = pause.overlapping(others) {
      let whose = pause.habitID == nil ? "another pause of all habits" : "another pause of this habit"
      let end = clash.until.map { "through \($0)" } ?? "with no end"
      throw StoreError.invalid(
        ValidationError(field: "from", rule: "shares days with \(whose) (from \(clash.from) \(end))"))
    }
    return pause
  }
}

extension [UUID: HabitHistory] {
  /// These histories with each habit's pauses attached: a habit with no days but a pause is
  /// added (as an empty history with the pause), so a caller that reads a missing habit as
  /// having no days reads it as unpaused only when it is.
  public func pausing(_ pauses: [Pause], habits: some Sequence<UUID>) -> [UUID: HabitHistory] {
    guard !pauses.isEmpty else { return self }
    var result = self
    for habit in habits {
      let paused = PausedDays(pauses, habit: habit)
      guard !paused.isEmpty else { continue }
      result[habit] = (self[habit] ?? HabitHistory([])).pausing(paused)
    }
    return result
  }
}
