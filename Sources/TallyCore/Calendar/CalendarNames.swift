import Foundation

/// A locale's weekday and month names, in the Gregorian calendar's order (Sunday first,
/// January first). Read from Foundation once per locale: each read of a `Calendar`'s symbols
/// asks ICU afresh, and one page names dozens of days.
final class CalendarNames: Sendable {
  let weekdays: [String]
  let shortWeekdays: [String]
  let shortStandaloneWeekdays: [String]
  let months: [String]
  let shortStandaloneMonths: [String]

  private init(_ locale: Locale) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = locale
    weekdays = calendar.weekdaySymbols
    shortWeekdays = calendar.shortWeekdaySymbols
    shortStandaloneWeekdays = calendar.shortStandaloneWeekdaySymbols
    months = calendar.monthSymbols
    shortStandaloneMonths = calendar.shortStandaloneMonthSymbols
  }

  /// The Gregorian calendar's names in `locale`.
  static func of(_ locale: Locale) -> CalendarNames {
    Kept.shared.names(of: locale)
  }

  /// A lock of Foundation's: the engine builds for Apple systems older than Swift's `Mutex`.
  private final class Kept: @unchecked Sendable {
    static let shared = Kept()
    private let lock = NSLock()
    private var byLocale: [String: CalendarNames] = [:]

    /// Read under the lock, so a locale's names are asked of Foundation once however many
    /// requests want them first.
    func names(of locale: Locale) -> CalendarNames {
      let key = locale.identifier
      return lock.withLock {
        if let names = byLocale[key] { return names }
        // A few hundred locales exist; the bound only guards against a caller inventing more.
        if byLocale.count >= 1024 { byLocale.removeAll(keepingCapacity: true) }
        let names = CalendarNames(locale)
        byLocale[key] = names
        return names
      }
    }
  }
}
