/// The horizontal strip of the last 30 days, today and the next 2, after a stats header
/// (SPEC 5).
public struct DateRow: Hashable, Codable, Sendable {
  public static let daysBeforeToday = 30
  public static let daysAfterToday = 2
  /// Selected days keep this many days visible before them when the row scrolls.
  public static let daysShownBeforeSelection = 5

  /// `N Days Streak • N Chats • N Entries`, shown even when every count is 0.
  public let header: String
  public let streak: Int
  /// Days in the row that have chat.
  public let chats: Int
  /// Days in the row that have a journal entry.
  public let entries: Int
  public let scrollTarget: DateRowScrollTarget
  public let cells: [DateCell]

  /// `streak` is passed in rather than recomputed: the Today view shows one streak in two
  /// places and works it out once.
  public init(
    today: Day, selectedDay: Day, activity: JournalActivity, streak: Int, calendar: DayCalendar
  ) {
    let days = DateRow.days(today: today)
    let chats = days.count(where: activity.hasChat)
    let entries = days.count(where: activity.hasEntry)
    self.header = DateRow.headerText(streak: streak, chats: chats, entries: entries)
    self.streak = streak
    self.chats = chats
    self.entries = entries
    self.scrollTarget = DateRow.scrollTarget(for: selectedDay, today: today)
    // The row is too small for numbers on every circle; only today's shows, whatever the
    // grid's setting.
    self.cells = days.map {
      DateCell(
        day: $0, today: today, selectedDay: selectedDay, activity: activity, calendar: calendar,
        showGridDates: false)
    }
  }

  /// T−30 … T+2, 33 days.
  public static func days(today: Day) -> ClosedRange<Day> {
    today.adding(days: -daysBeforeToday)...today.adding(days: daysAfterToday)
  }

  public static func headerText(streak: Int, chats: Int, entries: Int) -> String {
    [
      counted(streak, "Day Streak", "Days Streak"),
      counted(chats, "Chat", "Chats"),
      counted(entries, "Entry", "Entries"),
    ].joined(separator: " • ")
  }

  /// Inside the row: the circle five before the selection (or the first), aligned leading,
  /// so the selection sits a little in from the edge. Before the row: the header. After it:
  /// the last circle, aligned trailing.
  public static func scrollTarget(for selectedDay: Day, today: Day) -> DateRowScrollTarget {
    let days = DateRow.days(today: today)
    if selectedDay < days.lowerBound { return .header }
    if selectedDay > days.upperBound {
      return .day(index: days.count - 1, anchor: .trailing)
    }
    let index = days.lowerBound.days(to: selectedDay)
    return .day(index: max(0, index - daysShownBeforeSelection), anchor: .leading)
  }
}
