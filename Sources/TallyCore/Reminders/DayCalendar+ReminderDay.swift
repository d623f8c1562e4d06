import Foundation

extension DayCalendar {
  /// The calendar date on which `time` comes round during the user's day `day`.
  ///
  /// The user's day D runs from D at `daySwitchHour`:00 to D+1 at `daySwitchHour`:00, so a
  /// time at or after the switch hour falls on date D and an earlier one on date D+1: with a
  /// switch hour of 3, a 01:00 reminder for Monday fires in the small hours of Tuesday, while
  /// the user is still living Monday. This is the same wall-clock rule as
  /// ``day(containing:)``, applied backwards.
  public func date(of time: WallTime, inUserDay day: Day) -> Day {
    time.hour < daySwitchHour ? day.adding(days: 1) : day
  }

  /// The instant `time` fires for the user's day `day`; see ``date(of:inUserDay:)`` and
  /// ``instant(of:on:)``.
  public func instant(of time: WallTime, inUserDay day: Day) -> Date {
    instant(of: time, on: date(of: time, inUserDay: day))
  }
}
