/// The run of days with chat that ends yesterday (SPEC 5).
///
/// Today never counts: the streak is what the person has already kept, so it does not jump
/// when they first write today, nor read as broken in the morning before they have.
public enum JournalStreak {
  /// Consecutive days with chat counted back from the day before `today`. A date the user's
  /// time zone skipped entirely neither breaks nor extends the run.
  public static func length(activity: JournalActivity, today: Day, calendar: DayCalendar) -> Int {
    var length = 0
    var day = today.adding(days: -1)
    while true {
      if activity.hasChat(day) {
        length += 1
      } else if calendar.hasInstants(on: day) {
        return length
      }
      day = day.adding(days: -1)
    }
  }

  /// `1 Day Streak`, `N Days Streak`, or `nil` (no badge) at 0.
  public static func badge(forLength length: Int) -> String? {
    length > 0 ? counted(length, "Day Streak", "Days Streak") : nil
  }
}
