import Foundation
import TallyCore

/// Reminder schedules computed the long way: every fire instant is found by formatting
/// instants minute by minute in the zone until the wall clock reads the wanted time, and every
/// date and week step goes through ``ReferenceCalendar``. Property tests compare the engine
/// with it.
public enum ReferenceReminders {
  /// The first instant, scanning minute by minute, whose wall clock reads `time` on `date` or
  /// later: the first occurrence of a repeated time, the end of the gap for a missing one.
  public static func instant(of time: WallTime, on date: Day, timeZone: TimeZone) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let wanted = "\(date) \(time)"
    // Wall clocks run from UTC−12 to UTC+14, so the instant lies within these bounds of the
    // wall time read as UTC.
    let wallAsUTC = ReferenceCalendar.utcCalendar.date(
      from: DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute))!
    var instant = wallAsUTC.addingTimeInterval(-15 * 3600)
    while formatter.string(from: instant) < wanted {
      instant = instant.addingTimeInterval(60)
    }
    return instant
  }

  /// The wall-clock times a reminder fires at, counted up hour by hour.
  public static func times(of reminder: Reminder) -> [WallTime] {
    switch reminder {
    case .none:
      return []
    case .single(let time):
      return [time]
    case .periodic(let start, let end, let everyHours):
      var times: [WallTime] = []
      var hour = start.hour
      while hour <= 23, let time = try? WallTime(hour: hour, minute: start.minute), time <= end {
        times.append(time)
        hour += everyHours
      }
      return times
    }
  }

  /// Counts the completed days among the seven of the day's week.
  public static func isDue(
    on day: Day, frequency: Frequency, entries: [HabitEntry], firstWeekday: Weekday
  ) -> Bool {
    func completed(_ day: Day) -> Bool {
      entries.contains { $0.day == day && $0.status == .done }
    }
    if completed(day) { return false }
    guard case .weekly(let target) = frequency else { return true }
    let start = ReferenceCalendar.startOfWeek(containing: day, firstWeekday: firstWeekday)
    let completions = (0..<7).filter { completed(ReferenceCalendar.adding($0, to: start)) }.count
    return completions < target
  }

  public static func occurrences(
    of habit: Habit, entries: [HabitEntry], after now: Date, days: Int,
    timeZone: TimeZone, daySwitchHour: Int, firstWeekday: Weekday
  ) -> [ReminderOccurrence] {
    if habit.archived { return [] }
    let today = ReferenceCalendar.day(containing: now, timeZone: timeZone, daySwitchHour: daySwitchHour)
    var found: [ReminderOccurrence] = []
    for offset in 0..<days {
      let day = ReferenceCalendar.adding(offset, to: today)
      guard isDue(on: day, frequency: habit.frequency, entries: entries, firstWeekday: firstWeekday)
      else { continue }
      for time in times(of: habit.reminder) {
        let date = time.hour < daySwitchHour ? ReferenceCalendar.adding(1, to: day) : day
        let instant = instant(of: time, on: date, timeZone: timeZone)
        if instant > now {
          found.append(ReminderOccurrence(instant: instant, day: day, time: time, habitID: habit.id))
        }
      }
    }
    var kept: [ReminderOccurrence] = []
    for occurrence in found {
      if let index = kept.firstIndex(where: { $0.instant == occurrence.instant }) {
        let other = kept[index]
        if (occurrence.day, occurrence.time) < (other.day, other.time) {
          kept[index] = occurrence
        }
      } else {
        kept.append(occurrence)
      }
    }
    return kept.sorted { $0.instant < $1.instant }
  }
}
