import Foundation

/// The identity of a reminder occurrence, stable across runs and machines, so a sender (the
/// webhook scheduler, an iCalendar UID) can remember what it already delivered.
///
/// It names what the user set (habit, user's day, wall-clock time), never the instant: the
/// instant moves when the user changes time zone, but the reminder they already got for that
/// day and time must not come again. Text form: `<habit id, lowercase>/<YYYY-MM-DD>/<HH:MM>`,
/// e.g. `6f1c…-…/2026-03-08/08:00`; it is also the JSON form.
public struct ReminderOccurrenceKey: Hashable, Sendable {
  public let habitID: UUID
  public let day: Day
  public let time: WallTime

  public init(habitID: UUID, day: Day, time: WallTime) {
    self.habitID = habitID
    self.day = day
    self.time = time
  }
}

extension ReminderOccurrenceKey: LosslessStringConvertible {
  public init?(_ description: String) {
    let parts = description.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, let habitID = UUID(uuidString: String(parts[0])),
      let day = Day(String(parts[1])), let time = try? WallTime(parsing: String(parts[2])),
      parts[2].count == 5
    else { return nil }
    self.init(habitID: habitID, day: day, time: time)
  }

  public var description: String {
    "\(habitID.uuidString.lowercased())/\(day)/\(time)"
  }
}

extension ReminderOccurrenceKey: TextCodable {
  public init(parsing text: String, field: String = "key") throws(ValidationError) {
    guard let key = ReminderOccurrenceKey(text) else {
      throw ValidationError(
        field: field, rule: "must be a reminder key habit-id/YYYY-MM-DD/HH:MM, not '\(text)'")
    }
    self = key
  }
}
