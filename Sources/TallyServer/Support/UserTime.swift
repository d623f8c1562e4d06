import Foundation
import TallyCore
import TallyStore

/// A user's day rules and the moment a request acts at (SPEC 1), read once per request so
/// every "today" in one answer is the same day.
struct UserTime {
  let calendar: DayCalendar
  let now: Date

  var today: Day { calendar.day(containing: now) }
}

extension AppServices {
  /// The signed-in user's calendar at `clock()`.
  func time(for user: User) throws -> UserTime {
    UserTime(calendar: try user.settings.dayCalendar(), now: clock())
  }
}
