import Foundation
import TallyCore
import TallyStore

/// A user's day rules and the moment a request acts at (SPEC 1), read once per request so
/// every "today" in one answer is the same day.
package struct UserTime {
  package let calendar: DayCalendar
  package let now: Date

  package var today: Day { calendar.day(containing: now) }
}

extension AppServices {
  /// The signed-in user's calendar at `clock()`.
  package func time(for user: User) throws -> UserTime {
    UserTime(calendar: try user.settings.dayCalendar(), now: clock())
  }
}
