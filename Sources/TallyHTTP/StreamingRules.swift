import Foundation
import HTTPTypes
import TallyCore
import TallyStore

/// Limits on shows and prices that the API and the pages both enforce.
package enum StreamingRules {
  /// The largest provider id, season or episode number the API takes: TMDB's ids are 32-bit,
  /// and anything larger is a typo.
  package static let largestNumber = Int(Int32.max)
  /// The largest monthly price, in any currency: more is a typo, not a subscription.
  package static let largestAmount: Decimal = 1_000_000

  /// The 6 weeks on screen reach into the neighbouring months; they must stay within the
  /// four-digit years, or a day would print as something that is not a day.
  package static func checkPrintable(_ month: Month, calendar: DayCalendar) throws {
    let first = calendar.startOfWeek(containing: month.firstDay)
    let printable = Day(year: 0, month: 1, day: 1)!...Day(year: 9999, month: 12, day: 31)!
    guard printable.contains(first), printable.contains(first.adding(days: MonthView.cellCount - 1)) else {
      throw Problem(
        .badRequest, "The month \(month) is too far out: its 6 weeks must fall within the years 0000 to 9999.",
        field: "month")
    }
  }

  /// Saves `show` for the API and the pages alike: a title the user already has (the store's
  /// NameKey rule) is a 409 at the `title` field.
  package static func save(_ show: Show, for user: UUID, in store: any Store) async throws {
    do {
      try await store.saveShow(show, for: user)
    } catch let error as StoreError where error == ShowRules.titleTaken(show.title) {
      throw Problem(.conflict, error.description, field: "title")
    }
  }
}
