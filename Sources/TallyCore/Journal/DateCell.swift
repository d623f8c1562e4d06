/// One date circle as the Today view hands it to a renderer: the day, the facts about it,
/// and the style and spoken label already resolved from those facts.
public struct DateCell: Hashable, Codable, Sendable {
  public let day: Day
  /// The day of the month, the number a circle may show.
  public let dayNumber: Int
  public let tense: DayTense
  public let isSelected: Bool
  public let hasEntry: Bool
  public let hasChat: Bool
  public let accessibilityLabel: String
  public let style: DateCircleStyle
  /// Where the circle's centre sits; set for grid cells, `nil` in the date row, which
  /// scrolls and is laid out by its renderer.
  public let centre: GridPoint?

  public init(
    day: Day, today: Day, selectedDay: Day, activity: JournalActivity, calendar: DayCalendar,
    showGridDates: Bool, centre: GridPoint? = nil
  ) {
    let tense = DayTense(day, today: today)
    let isSelected = day == selectedDay
    let hasEntry = activity.hasEntry(day)
    let hasChat = activity.hasChat(day)
    self.day = day
    self.dayNumber = day.day
    self.tense = tense
    self.isSelected = isSelected
    self.hasEntry = hasEntry
    self.hasChat = hasChat
    self.accessibilityLabel = DateCircleAccessibility.label(
      for: day, today: today, isSelected: isSelected, hasEntry: hasEntry, hasChat: hasChat,
      calendar: calendar)
    self.style = DateCircleStyle(
      tense: tense, isSelected: isSelected, hasEntry: hasEntry, hasChat: hasChat,
      showGridDates: showGridDates)
    self.centre = centre
  }
}
