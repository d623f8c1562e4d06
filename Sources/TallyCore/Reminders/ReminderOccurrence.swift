import Foundation

/// One firing of a habit's reminder: the instant it goes off, and the user's day and
/// wall-clock time it was set for.
///
/// `day` is the user's day the reminder belongs to, not always the calendar date of `instant`:
/// a time before the day-switch hour fires early on the next date, and a time inside a DST gap
/// fires at the end of the gap.
public struct ReminderOccurrence: Hashable, Codable, Sendable {
  public let instant: Date
  public let day: Day
  public let time: WallTime
  public let habitID: UUID

  public init(instant: Date, day: Day, time: WallTime, habitID: UUID) {
    self.instant = instant
    self.day = day
    self.time = time
    self.habitID = habitID
  }

  public var key: ReminderOccurrenceKey {
    ReminderOccurrenceKey(habitID: habitID, day: day, time: time)
  }
}
