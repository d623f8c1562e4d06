/// One day of the month view's 6 × 7 grid.
public struct MonthCell: Hashable, Sendable, Codable {
  public let day: Day
  /// False for the leading and trailing days borrowed from the neighbouring months.
  public let isInMonth: Bool
  public let isToday: Bool
  /// The distinct providers of watching shows airing an episode this day, in
  /// ``Provider/displayOrder(_:_:)``.
  public let providers: [Provider]
  /// The first of ``providers``; `nil` on a day with nothing on.
  public let primary: Provider?
  public let display: CellDisplay
  public let accessibilityLabel: String

  init(day: Day, isInMonth: Bool, isToday: Bool, providers: [Provider], calendar: DayCalendar) {
    self.day = day
    self.isInMonth = isInMonth
    self.isToday = isToday
    self.providers = providers
    self.primary = providers.first
    self.display = CellDisplay(orderedProviders: providers)
    self.accessibilityLabel = StreamingAccessibility.cellLabel(
      day: day, providers: providers, calendar: calendar)
  }
}
