import Foundation
import TallyCore
import TallyStore

extension TodayView {
  /// The screen width the grid is laid out for when a caller names none (SPEC 5's example).
  public static let defaultWidth = 372.0

  /// The user's Today view read from `store`: what `tally today --json` prints and
  /// `GET /api/v1/today` sends (the view is its own JSON shape).
  // Not inlined into callers: inlined, the Swift 6.3 optimizer crashes splitting the async
  // handler that calls it (release builds only).
  @inline(never)
  public static func read(
    from store: any Store, user: User, today: Day, calendar: DayCalendar, width: Double,
    selectedDay: Day?
  ) async throws -> TodayView {
    // The streak may reach back any distance, so the whole journal's activity is read.
    let activity = try await store.journalActivity(in: Day.allTime, for: user.id)
    return try TodayView(
      width: width, today: today, selectedDay: selectedDay, activity: activity, calendar: calendar,
      settings: user.settings.today)
  }
}
