import Foundation
import TallyCore

/// What happened to a habit on each day: at most one entry per (habit, day).
///
/// Days are set to a value (``DayMark``), never toggled, so a retried or repeated request
/// changes nothing the second time. The store does not know what day it is: refusing days
/// after today (``DayMark/checkMarkable(_:today:)``) is the caller's job.
public protocol EntryRepository: Sendable {
  /// Sets every one of `days` of the user's habit to `mark`, all in one transaction.
  ///
  /// `note`: `nil` keeps each day's note as it is, blank text removes it, other text (trimmed,
  /// at most ``EntryNote/maxCharacters``) replaces it. `.nothing` removes the entry with its
  /// note; `.noted` (not done, only a note) must be given a note that is not blank. Returns the entries of those days afterwards, by day (days left with no entry are
  /// absent). Duplicate days count once.
  @discardableResult
  func setDays(
    _ days: [Day], of habit: UUID, to mark: DayMark, note: String?, for user: UUID
  ) async throws -> [HabitEntry]

  /// The habit's entries by day, all of them or those in `range`.
  func entries(of habit: UUID, in range: ClosedRange<Day>?, for user: UUID) async throws
    -> [HabitEntry]

  /// Entries in `range` of all the user's habits, archived ones included, keyed by habit id,
  /// each list by day. Habits with no entry in the range are absent.
  func entries(in range: ClosedRange<Day>, for user: UUID) async throws -> [UUID: [HabitEntry]]

  /// Every habit's days as statistics and grids read them (``HabitHistory``: no notes), keyed
  /// by habit id; a habit with no day done or skipped may be absent. A store may keep them in
  /// a form far cheaper to read than its entries; by default they are built from the entries.
  func histories(for user: UUID) async throws -> [UUID: HabitHistory]
}

extension EntryRepository {
  /// Sets one day; returns its entry afterwards (`nil` for `.nothing`).
  @discardableResult
  public func setDay(
    _ day: Day, of habit: UUID, to mark: DayMark, note: String? = nil, for user: UUID
  ) async throws -> HabitEntry? {
    try await setDays([day], of: habit, to: mark, note: note, for: user).first
  }

  public func histories(for user: UUID) async throws -> [UUID: HabitHistory] {
    try await historiesFromEntries(for: user)
  }

  /// ``histories(for:)`` built from every entry, leaving out habits with no day done or
  /// skipped: the default, and what a store's own form is checked against.
  public func historiesFromEntries(for user: UUID) async throws -> [UUID: HabitHistory] {
    try await entries(in: Day.allTime, for: user).mapValues(HabitHistory.init).filter { $0.value.firstDay != nil }
  }

  /// All of the habit's entries, by day.
  public func entries(of habit: UUID, for user: UUID) async throws -> [HabitEntry] {
    try await entries(of: habit, in: nil, for: user)
  }
}
