/// Everything the Today screen shows for one moment, as plain values: what
/// `tally today --json` prints and the web page renders.
public struct TodayView: Hashable, Codable, Sendable {
  public let today: Day
  public let selectedDay: Day
  public let showsTodayButton: Bool
  /// Days of chat in a row, ending yesterday.
  public let streak: Int
  /// `nil` when the streak is 0: the badge is hidden.
  public let streakBadge: String?
  public let settings: TodaySettings
  public let dateRow: DateRow
  /// `nil` when `showDatePickerGrid` is off.
  public let grid: DatePickerGrid?

  /// Takes a layout rather than a width so a caller that keeps one across small width
  /// changes (``DatePickerGridLayout/adjusted(toWidth:)``) gets exactly that grid.
  public init(
    layout: DatePickerGridLayout, today: Day, selectedDay: Day? = nil,
    activity: JournalActivity, calendar: DayCalendar, settings: TodaySettings = TodaySettings()
  ) {
    let selectedDay = selectedDay ?? today
    let streak = JournalStreak.length(activity: activity, today: today, calendar: calendar)
    self.today = today
    self.selectedDay = selectedDay
    self.showsTodayButton = DaySelection(today: today, selected: selectedDay).showsTodayButton
    self.streak = streak
    self.streakBadge = JournalStreak.badge(forLength: streak)
    self.settings = settings
    self.dateRow = DateRow(
      today: today, selectedDay: selectedDay, activity: activity, streak: streak,
      calendar: calendar)
    self.grid =
      settings.showDatePickerGrid
      ? DatePickerGrid(
        layout: layout, today: today, selectedDay: selectedDay, activity: activity,
        calendar: calendar, showGridDates: settings.showGridDates)
      : nil
  }

  /// The view for a screen `width` points wide.
  public init(
    width: Double, today: Day, selectedDay: Day? = nil, activity: JournalActivity,
    calendar: DayCalendar, settings: TodaySettings = TodaySettings()
  ) throws(ValidationError) {
    self.init(
      layout: try DatePickerGridLayout(width: width), today: today, selectedDay: selectedDay,
      activity: activity, calendar: calendar, settings: settings)
  }
}
