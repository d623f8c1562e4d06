import Foundation

/// When a user's habit reminders fire next (SPEC 7), for the feed and webhook senders.
///
/// The window is the user's days today … today+N−1 (today = the day holding `now`), and only
/// instants strictly after `now` are returned: a sender that has just delivered what was due
/// at `now` can ask again with the same `now` and get nothing twice.
public struct ReminderSchedule: Sendable {
  public let calendar: DayCalendar

  public init(calendar: DayCalendar) {
    self.calendar = calendar
  }

  /// The occurrences of one habit's reminder, sorted by instant.
  /// Days `paused` (the habit's pauses and the user's pauses of all habits) are never due.
  public func occurrences(
    of habit: Habit, entries: [HabitEntry], paused: PausedDays = .none, after now: Date, days: Int
  ) throws(ValidationError) -> [ReminderOccurrence] {
    try occurrences(
      of: habit,
      dueRule: ReminderDueRule(habit: habit, entries: entries, paused: paused, calendar: calendar),
      after: now, days: days)
  }

  public func occurrences(
    of habit: Habit, statuses: [Day: EntryStatus], paused: PausedDays = .none, after now: Date, days: Int
  ) throws(ValidationError) -> [ReminderOccurrence] {
    try occurrences(
      of: habit,
      dueRule: ReminderDueRule(
        habit: habit, entries: statuses.map { HabitEntry(day: $0.key, status: $0.value) }, paused: paused,
        calendar: calendar),
      after: now, days: days)
  }

  /// All of a user's habits merged: sorted by instant, then by the habits' list order
  /// (`sortOrder`, then name, then id so ties never depend on input order). A habit missing
  /// from `entries` has none; `pauses` are the user's, of one habit or of all.
  public func occurrences(
    of habits: [Habit], entries: [UUID: [HabitEntry]], pauses: [Pause] = [], after now: Date, days: Int
  ) throws(ValidationError) -> [ReminderOccurrence] {
    var merged: [(habit: Habit, occurrence: ReminderOccurrence)] = []
    for habit in habits {
      for occurrence in try occurrences(
        of: habit, entries: entries[habit.id] ?? [], paused: PausedDays(pauses, habit: habit.id), after: now,
        days: days)
      {
        merged.append((habit, occurrence))
      }
    }
    merged.sort { lhs, rhs in
      if lhs.occurrence.instant != rhs.occurrence.instant {
        return lhs.occurrence.instant < rhs.occurrence.instant
      }
      if lhs.habit.sortOrder != rhs.habit.sortOrder { return lhs.habit.sortOrder < rhs.habit.sortOrder }
      if lhs.habit.name != rhs.habit.name { return lhs.habit.name < rhs.habit.name }
      return lhs.habit.id.uuidString < rhs.habit.id.uuidString
    }
    return merged.map(\.occurrence)
  }

  /// Archived habits and `.none` reminders produce nothing. Two times that land on one
  /// instant (a DST gap pushes 02:30 onto 03:00) fire once, as the earlier day and time.
  private func occurrences(
    of habit: Habit, dueRule: ReminderDueRule, after now: Date, days: Int
  ) throws(ValidationError) -> [ReminderOccurrence] {
    guard days >= 1 else {
      throw ValidationError(field: "days", rule: "must look ahead at least 1 day, not \(days)")
    }
    let times = habit.reminder.times
    guard !habit.archived, !times.isEmpty else { return [] }
    let today = calendar.day(containing: now)
    var found: [ReminderOccurrence] = []
    for day in today..<today.adding(days: days) where dueRule.isDue(on: day) {
      for time in times {
        let instant = calendar.instant(of: time, inUserDay: day)
        if instant > now {
          found.append(ReminderOccurrence(instant: instant, day: day, time: time, habitID: habit.id))
        }
      }
    }
    found.sort { ($0.instant, $0.day, $0.time) < ($1.instant, $1.day, $1.time) }
    var previous: Date?
    return found.filter { occurrence in
      defer { previous = occurrence.instant }
      return occurrence.instant != previous
    }
  }
}
