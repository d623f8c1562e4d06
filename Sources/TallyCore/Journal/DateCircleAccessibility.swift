/// What a screen reader says for a date circle.
///
/// The date comes first in words ("Monday 1 September") so swiping through the grid reads
/// like a calendar; the year is added only when it is not today's year. Then, in a fixed
/// order and only when they apply: "today", "journal entry", "chat", "selected". Chat is
/// named even when an entry fill hides the dot: the label describes the day, not the pixels.
public enum DateCircleAccessibility {
  public static func label(
    for day: Day, today: Day, isSelected: Bool, hasEntry: Bool, hasChat: Bool,
    calendar: DayCalendar
  ) -> String {
    let date = calendar.spokenName(of: day, includingYear: day.year != today.year)
    let states = [
      (day == today, "today"),
      (hasEntry, "journal entry"),
      (hasChat, "chat"),
      (isSelected, "selected"),
    ].filter(\.0).map(\.1)
    return ([date] + states).joined(separator: ", ")
  }
}
