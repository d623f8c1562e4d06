import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyWire

/// What the Calendar page shows (SPEC 6): the engine's month view as 6 weeks of tiles, and
/// the day detail of `?day=` when something airs that day.
struct CalendarModel: Sendable {
  struct Dot: Sendable {
    let fill: String
  }

  struct Logo: Sendable {
    let url: String

    /// Served from Tally's own origin (``LogoCache``), never linked where it came from.
    init(_ source: URL) {
      url = LogoCache.path(for: source)
    }
  }

  struct Tile: Sendable {
    let number: String
    /// ` out`, ` today`, ` open`, ` busy` as they apply: the tile's CSS classes.
    let classes: String
    let label: String
    let isToday: Bool
    /// Only a day when something airs is a link: an empty day opens nothing.
    let href: String?
    let tabIndex: Int
    let logo: Logo?
    /// Dots under a logo, or dots alone (`dotsOnly`).
    let dots: [Dot]
    let dotsOnly: Bool
    /// Only shows with no provider air: a plain mark.
    let plain: Bool
    let hasDots: Bool
    let overflow: String?
  }

  struct Week: Sendable {
    let tiles: [Tile]
  }

  struct Letter: Sendable {
    let letter: String
    let name: String
  }

  struct Country: Sendable {
    let code: String
    let name: String
    let selected: Bool
  }

  struct DetailRow: Sendable {
    let name: String
    let logo: Logo?
    let fill: String
    let price: String
    let label: String
    /// What airs on this provider that day, one line per episode.
    let airing: [String]
  }

  /// A provider shown this month and its dot colour.
  struct LegendItem: Sendable {
    let name: String
    let fill: String
  }

  struct Detail: Sendable {
    let heading: String
    let total: String
    let rows: [DetailRow]
    /// "Not on a streaming service in United States", over ``withoutProvider``.
    let withoutProviderHeading: String
    /// What airs that day on shows with no provider in the country.
    let withoutProvider: [String]
    let unpriced: String?
    let close: String
  }

  let heading: String
  let month: String
  let country: String
  let countryName: String
  let letters: [Letter]
  let weeks: [Week]
  let previous: String
  let previousLabel: String
  let next: String
  let nextLabel: String
  let today: String
  let isCurrentMonth: Bool
  let countries: [Country]
  let detail: Detail?
  let legend: [LegendItem]
  let isWatching: Bool
  /// TMDB's required credit, when a watched show's data came from TMDB.
  let attribution: String?

  static func read(
    from store: any Store, user: User, month: Month, country: String, time: UserTime, open: Day?, words: PageDays
  ) async throws -> CalendarModel {
    let calendar = time.calendar
    let today = time.today
    let t = words.t
    let view = try await MonthView.read(
      from: store, user: user.id, month: month, country: country, calendar: calendar, today: today)
    let prices = try await store.priceTable(for: user.id)
    let isWatching = try await store.shows(for: user.id).contains { $0.status == .watching }
    let detail = open.flatMap { view.detail(for: $0, prices: prices) }
    var airing = CalendarAiring.Lines()
    if let detail {
      airing = try await CalendarAiring.lines(on: detail.day, country: view.country, store: store, user: user.id)
    }
    // Colours are handed out over the six weeks on screen, so no two providers share one.
    var shown: [Int: Provider] = [:]
    for provider in view.cells.flatMap(\.providers) where shown[provider.id] == nil {
      shown[provider.id] = provider
    }
    let colors = ProviderPalette.distinctColors(for: Array(shown.values))
    func fill(_ provider: Provider) -> String { (colors[provider.id] ?? ProviderPalette.color(for: provider)).css }
    let base = "/calendar/\(month)?country=\(view.country)"
    let stop = view.cell(for: today).flatMap { month.contains($0.day) ? $0.day : nil } ?? month.firstDay

    var codes = Set(prices.prices.map(\.country))
    codes.insert(view.country)
    return CalendarModel(
      heading: words.monthAndYear(month.firstDay),
      month: month.description,
      country: view.country,
      countryName: countryName(view.country, words: words),
      letters: words.names.orderedWeekdays.map {
        Letter(letter: words.names.dayLetter(for: $0), name: words.weekdayName($0))
      },
      weeks: view.rows.map { row in
        Week(tiles: row.map { tile(for: $0, base: base, stop: stop, open: detail?.day, fill: fill, words: words) })
      },
      previous: "/calendar/\(month.previous)?country=\(view.country)",
      previousLabel: t.text("calendar.previousMonth", ["month": words.monthAndYear(month.previous.firstDay)]),
      next: "/calendar/\(month.next)?country=\(view.country)",
      nextLabel: t.text("calendar.nextMonth", ["month": words.monthAndYear(month.next.firstDay)]),
      today: "/calendar/\(Month(containing: today))?country=\(view.country)",
      isCurrentMonth: month.contains(today),
      countries: codes.sorted().map { Country(code: $0, name: countryName($0, words: words), selected: $0 == view.country) },
      detail: detail.map {
        detailModel($0, words: words, today: today, country: view.country, close: base, airing: airing, fill: fill)
      },
      legend: shown.values.sorted(by: Provider.displayOrder).map { LegendItem(name: $0.name, fill: fill($0)) },
      isWatching: isWatching, attribution: view.attribution.map { _ in t.text("calendar.tmdbNotice") })
  }

  static func tile(
    for cell: MonthCell, base: String, stop: Day, open: Day?, fill: (Provider) -> String, words: PageDays
  ) -> Tile {
    let logoOf = { (provider: Provider) in provider.logoURL.map(Logo.init) }
    let (logo, dots, dotsOnly): (Logo?, [Provider], Bool) =
      switch cell.display {
      case .none, .plain: (nil, [], false)
      case .logo(let provider): (logoOf(provider), [], false)
      case .logoWithDots(let primary, let others): (logoOf(primary), others, false)
      case .dots(let shown, _): (nil, shown, true)
      }
    let classes = [
      cell.isInMonth ? nil : " out", cell.isToday ? " today" : nil, cell.day == open ? " open" : nil,
      cell.hasAiring ? " busy" : nil,
    ].compactMap(\.self).joined()
    return Tile(
      number: String(cell.day.day), classes: classes, label: label(of: cell, words: words),
      isToday: cell.isToday,
      href: cell.hasAiring ? "\(base)&day=\(cell.day)#day-detail" : nil,
      tabIndex: cell.day == stop ? 0 : -1, logo: logo,
      dots: dots.map { Dot(fill: fill($0)) }, dotsOnly: dotsOnly, plain: cell.display == .plain,
      hasDots: !dots.isEmpty || cell.display.overflowText != nil, overflow: cell.display.overflowText)
  }

  static func detailModel(
    _ detail: DayDetail, words: PageDays, today: Day, country: String, close: String, airing: CalendarAiring.Lines,
    fill: (Provider) -> String
  ) -> Detail {
    let t = words.t
    let unpriced = detail.unpricedCount
    let sum = detail.totals.isEmpty ? DayDetail.unpricedText : detail.totals.map(\.text).joined(separator: " + ")
    let when =
      detail.day == today
      ? t.text("calendar.airingToday")
      : t.text(detail.day > today ? "calendar.airingOn" : "calendar.airedOn", ["day": words.name(detail.day)])
    return Detail(
      heading: words.name(detail.day, includingYear: true),
      total: t.text("calendar.total", ["sum": sum]),
      rows: detail.rows.map { row in
        let price = row.price == nil ? t.text("calendar.noPrice") : row.priceText
        return DetailRow(
          name: row.provider.name, logo: row.provider.logoURL.map(Logo.init),
          fill: fill(row.provider), price: row.priceText,
          label: [row.provider.name, price, when].joined(separator: t.text("dayCell.separator")),
          airing: airing.byProvider[row.provider.id] ?? [])
      },
      withoutProviderHeading: t.text("calendar.withoutProvider", ["country": countryName(country, words: words)]),
      // Each episode when the day's episodes were read, else the shows' titles.
      withoutProvider: airing.withoutProvider.isEmpty ? detail.showsWithoutProvider : airing.withoutProvider,
      unpriced: unpriced == 0 ? nil : t.plural("calendar.unpriced", count: unpriced, ["country": countryName(country, words: words)]),
      close: close)
  }

  /// "Netflix, Max and Hulu on Monday 1 September"; a show with no provider is named by its
  /// title; just the date for a day with nothing on.
  static func label(of cell: MonthCell, words: PageDays) -> String {
    let date = words.name(cell.day)
    let names = cell.providers.map(\.name) + cell.showsWithoutProvider
    return names.isEmpty ? date : words.t.text("calendar.cellLabel", ["names": words.list(names), "day": date])
  }

  /// "United States", in the page's language; the code itself when the system knows no name for it.
  static func countryName(_ code: String, words: PageDays) -> String {
    words.t.locale.localizedString(forRegionCode: code) ?? code
  }
}
