/// One day of the month view's 6 × 7 grid.
public struct MonthCell: Hashable, Sendable, Codable {
  public let day: Day
  /// False for the leading and trailing days borrowed from the neighbouring months.
  public let isInMonth: Bool
  public let isToday: Bool
  /// The distinct providers of watching shows airing an episode this day, in
  /// ``Provider/displayOrder(_:_:)``.
  public let providers: [Provider]
  /// The titles of watching shows airing this day that have no provider in the country:
  /// named in the label and the day's detail, drawn as a plain mark when nothing else is.
  public let showsWithoutProvider: [String]
  /// The first of ``providers``; `nil` on a day with no provider.
  public let primary: Provider?
  public let display: CellDisplay
  public let accessibilityLabel: String

  /// Whether any episode airs this day.
  public var hasAiring: Bool { !providers.isEmpty || !showsWithoutProvider.isEmpty }

  init(
    day: Day, isInMonth: Bool, isToday: Bool, providers: [Provider], showsWithoutProvider: [String] = [],
    calendar: DayCalendar
  ) {
    self.day = day
    self.isInMonth = isInMonth
    self.isToday = isToday
    self.providers = providers
    self.showsWithoutProvider = showsWithoutProvider
    self.primary = providers.first
    self.display =
      providers.isEmpty && !showsWithoutProvider.isEmpty ? .plain : CellDisplay(orderedProviders: providers)
    self.accessibilityLabel = StreamingAccessibility.cellLabel(
      day: day, providers: providers, showsWithoutProvider: showsWithoutProvider, calendar: calendar)
  }
}
