import Foundation

/// The streaming calendar for one month and country (SPEC 6): 42 days from the start of the
/// week holding the 1st, as 6 rows of 7.
///
/// Each day's providers come only from episodes airing that day (a show with no provider in
/// the country is named on its day instead), so nothing carries over
/// from one month to the next. Leading and trailing days from the neighbouring months follow
/// the same rule and show exactly what they show in their own month.
public struct MonthView: Sendable {
  public static let rowCount = 6
  public static let columnCount = 7
  public static let cellCount = rowCount * columnCount

  public let month: Month
  /// Upper-case ISO 3166 alpha-2 code.
  public let country: String
  public let today: Day
  public let calendar: DayCalendar
  /// All 42 cells in reading order.
  public let cells: [MonthCell]
  /// The credit a page must show with the view when some of its data came from TMDB
  /// (``TMDBAttribution/text``); `nil` when none did.
  public var attribution: String?

  /// Builds the view in one pass over the episodes: each episode is dropped into its cell's
  /// bucket, and only then is each cell's provider list assembled.
  public init(
    month: Month, country: String, shows: [Show], episodes: [Episode], calendar: DayCalendar,
    today: Day
  ) throws(ValidationError) {
    let country = try CountryCode.normalized(country)
    let firstDay = calendar.startOfWeek(containing: month.firstDay)

    var watchingShowIndexes: [UUID: [Int]] = [:]
    for (index, show) in shows.enumerated() where show.status == .watching {
      watchingShowIndexes[show.id, default: []].append(index)
    }

    var showIndexesByCell = Array(repeating: Set<Int>(), count: MonthView.cellCount)
    for episode in episodes {
      let offset = firstDay.days(to: episode.airDay)
      guard (0..<MonthView.cellCount).contains(offset),
        let indexes = watchingShowIndexes[episode.showID]
      else { continue }
      showIndexesByCell[offset].formUnion(indexes)
    }

    let monthRange = month.firstDay...month.lastDay
    cells = showIndexesByCell.enumerated().map { offset, showIndexes in
      let day = firstDay.adding(days: offset)
      let airing = showIndexes.sorted().map { shows[$0] }
      return MonthCell(
        day: day, isInMonth: monthRange.contains(day), isToday: day == today,
        providers: MonthView.providers(of: airing, in: country),
        showsWithoutProvider: MonthView.titlesWithoutProvider(of: airing, in: country),
        calendar: calendar)
    }
    self.month = month
    self.country = country
    self.today = today
    self.calendar = calendar
  }

  /// Distinct by id; when shows disagree about a provider's name or logo, the show listed
  /// first wins, so the result does not depend on the order of the episodes.
  private static func providers(of shows: [Show], in country: String) -> [Provider] {
    var seen = Set<Int>()
    var providers: [Provider] = []
    for show in shows {
      for provider in show.providers(in: country) where seen.insert(provider.id).inserted {
        providers.append(provider)
      }
    }
    return providers.sorted(by: Provider.displayOrder)
  }

  /// The titles of the shows that have no provider in `country` (a broadcast show, a Plex
  /// library), by title: their episodes still show on their days.
  private static func titlesWithoutProvider(of shows: [Show], in country: String) -> [String] {
    Set(shows.filter { $0.providers(in: country).isEmpty }.map(\.title))
      .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
  }

  /// The cells as 6 weeks of 7 days.
  public var rows: [[MonthCell]] {
    (0..<MonthView.rowCount).map { row in
      Array(cells[row * MonthView.columnCount..<(row + 1) * MonthView.columnCount])
    }
  }

  /// The cell showing `day`, or `nil` when the day is outside the grid.
  public func cell(for day: Day) -> MonthCell? {
    let offset = cells[0].day.days(to: day)
    return cells.indices.contains(offset) ? cells[offset] : nil
  }

  /// What tapping `day` opens: `nil` (nothing opens) for a day when nothing airs or outside
  /// the grid.
  public func detail(for day: Day, prices: PriceTable) -> DayDetail? {
    guard let cell = cell(for: day) else { return nil }
    return DayDetail(
      day: day, providers: cell.providers, showsWithoutProvider: cell.showsWithoutProvider, country: country,
      prices: prices, today: today, calendar: calendar)
  }
}

extension MonthView: Encodable {
  private enum CodingKeys: String, CodingKey { case month, country, today, firstWeekday, cells, attribution }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(month, forKey: .month)
    try c.encode(country, forKey: .country)
    try c.encode(today, forKey: .today)
    try c.encode(calendar.firstWeekday, forKey: .firstWeekday)
    try c.encode(cells, forKey: .cells)
    try c.encodeIfPresent(attribution, forKey: .attribution)
  }
}
