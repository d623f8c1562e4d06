import Foundation
import TallyCore
import TallyStore

/// One reminder as `tally reminders --json` prints it and `GET /api/v1/reminders` sends it.
public struct ReminderJSON: Encodable, Sendable {
  public let habitId: String
  public let habitName: String
  /// The user's day the reminder belongs to.
  public let day: Day
  /// The wall-clock time it was set for.
  public let time: WallTime
  /// When it fires.
  public let instant: Date
  /// `habit-id/YYYY-MM-DD/HH:MM`, stable across runs.
  public let key: ReminderOccurrenceKey

  /// How far ahead a caller may look, in days, today included, and how far when it does not say.
  public static let dayRange = 1...366
  public static let defaultDays = 7

  /// The user's reminders firing after `now` over their days today … today+`days`−1, by
  /// instant. Archived habits are never reminded.
  public static func upcoming(
    from store: any Store, user: UUID, calendar: DayCalendar, now: Date, days: Int
  ) async throws -> [ReminderJSON] {
    let habits = try await store.habits(for: user, includingArchived: false)
    let occurrences = try await occurrences(
      of: habits, from: store, user: user, calendar: calendar, now: now, days: days)
    let names = Dictionary(uniqueKeysWithValues: habits.map { ($0.id, $0.name) })
    return occurrences.map {
      ReminderJSON(
        habitId: $0.habitID.storeText, habitName: names[$0.habitID] ?? "", day: $0.day,
        time: $0.time, instant: $0.instant, key: $0.key)
    }
  }

  /// The occurrences of `habits` (the user's, not archived, read by the caller, who needs
  /// them too) behind ``upcoming(from:user:calendar:now:days:)``: also what the calendar feed
  /// publishes.
  public static func occurrences(
    of habits: [Habit], from store: any Store, user: UUID, calendar: DayCalendar, now: Date, days: Int
  ) async throws -> [ReminderOccurrence] {
    let today = calendar.day(containing: now)
    // The due rule needs the whole week holding today, and every day of the window.
    let entries = try await store.entries(
      in: calendar.startOfWeek(containing: today)...today.adding(days: days), for: user)
    return try ReminderSchedule(calendar: calendar).occurrences(
      of: habits, entries: entries, pauses: try await store.pauses(for: user), after: now, days: days)
  }
}
