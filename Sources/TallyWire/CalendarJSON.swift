import Foundation
import TallyCore
import TallyStore

extension MonthView {
  /// The user's streaming month view read from `store`: what `tally calendar --json` prints
  /// and `GET /api/v1/calendar/{month}` sends (the view is its own JSON shape).
  public static func read(
    from store: any Store, user: UUID, month: Month, country: String, calendar: DayCalendar,
    today: Day
  ) async throws -> MonthView {
    // Only the episodes in the 42 days on screen, including the neighbouring months' days.
    let first = calendar.startOfWeek(containing: month.firstDay)
    let shows = try await store.shows(for: user)
    var view = try MonthView(
      month: month, country: country, shows: shows,
      episodes: try await store.episodes(airingIn: first...first.adding(days: MonthView.cellCount - 1), for: user),
      calendar: calendar, today: today)
    if shows.contains(where: { $0.tmdbID != nil && $0.status == .watching }) {
      view.attribution = TMDBAttribution.text
    }
    return view
  }

  /// The country a calendar shows by default: the locale's (`en_US` → `US`), or `nil` when the
  /// locale names none.
  public static func country(ofLocale locale: String) -> String? {
    // The region follows the language and, in zh_Hans_CN, the script.
    let parts = locale.replacingOccurrences(of: "-", with: "_").split(separator: "_").dropFirst()
    guard let region = parts.first(where: { $0.count == 2 }), let code = try? CountryCode.normalized(String(region))
    else { return nil }
    return code
  }
}
