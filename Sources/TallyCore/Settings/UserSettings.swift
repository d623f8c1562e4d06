import Foundation
import TallyLocalization

/// A user's preferences (SPEC 1 and 5), as stored and sent over the wire.
public struct UserSettings: Hashable, Codable, Sendable {
  /// An IANA zone name such as `Europe/Berlin`.
  public var timeZone: String
  public var daySwitchHour: Int
  public var firstWeekday: Weekday
  public var locale: String
  public var showDatePickerGrid: Bool
  public var showGridDates: Bool
  /// The language pages and reminders speak; `nil`: as each browser asks (docs/translating.md).
  public var language: Language?

  public init(
    timeZone: String,
    daySwitchHour: Int = 0,
    firstWeekday: Weekday = .sunday,
    locale: String = "en_US",
    showDatePickerGrid: Bool = true,
    showGridDates: Bool = false,
    language: Language? = nil
  ) {
    self.timeZone = timeZone
    self.daySwitchHour = daySwitchHour
    self.firstWeekday = firstWeekday
    self.locale = locale
    self.showDatePickerGrid = showDatePickerGrid
    self.showGridDates = showGridDates
    self.language = language
  }

  /// A new account's settings: `locale` when Foundation knows it, else en_US, and the week
  /// starting where that locale starts it (Monday in de_DE, Sunday in en_US); every other
  /// setting its default, the language following the browser.
  public static func newAccount(timeZone: String, locale: String?) -> UserSettings {
    let locale = locale.flatMap { isKnownLocale($0) ? $0 : nil } ?? "en_US"
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.locale = Locale(identifier: locale)
    return UserSettings(timeZone: timeZone, firstWeekday: Weekday(rawValue: gregorian.firstWeekday) ?? .sunday, locale: locale)
  }

  /// The day rules these settings describe; fails with the field that is wrong.
  public func dayCalendar() throws(ValidationError) -> DayCalendar {
    guard let zone = TimeZone(identifier: timeZone) else {
      throw ValidationError(
        field: "timeZone", rule: "must be an IANA time zone like Europe/Berlin, not '\(timeZone)'")
    }
    guard UserSettings.isKnownLocale(locale) else {
      throw ValidationError(field: "locale", rule: "must be a locale like en_US or fr_FR, not '\(locale)'")
    }
    return try DayCalendar(
      timeZone: zone, daySwitchHour: daySwitchHour, firstWeekday: firstWeekday,
      locale: Locale(identifier: locale))
  }

  /// The Today view's switches among these settings.
  public var today: TodaySettings {
    TodaySettings(showDatePickerGrid: showDatePickerGrid, showGridDates: showGridDates)
  }

  /// Checks every field, returning the settings unchanged when they are valid.
  public func validated() throws(ValidationError) -> UserSettings {
    if ValidSettings.shared.contains(self) { return self }
    _ = try dayCalendar()
    ValidSettings.shared.insert(self)
    return self
  }

  /// Read once: Foundation builds the list afresh on every call, and every request that reads
  /// a user checks their settings.
  private static let knownLocales = Set(Locale.availableIdentifiers)

  private static func isKnownLocale(_ identifier: String) -> Bool {
    knownLocales.contains(identifier.contains("-") ? identifier.replacing("-", with: "_") : identifier)
  }
}

extension Language {
  /// A language setting as a person or a client sends it, refused with the codes accepted.
  public static func setting(_ code: String) throws(ValidationError) -> Language {
    do {
      return try Language(code: code)
    } catch {
      throw ValidationError(
        field: "language",
        rule: "must be one of \(UnknownLanguage.acceptedCodes.joined(separator: ", ")); not '\(error.code)'")
    }
  }
}

/// Settings already found valid. Every request that reads a user checks their settings, and
/// building the calendar that checks them costs more than the rest of reading the row. A lock
/// of Foundation's: the engine builds for Apple systems older than Swift's `Mutex`.
private final class ValidSettings: @unchecked Sendable {
  static let shared = ValidSettings()
  private let lock = NSLock()
  private var settings: Set<UserSettings> = []

  func contains(_ value: UserSettings) -> Bool {
    lock.withLock { settings.contains(value) }
  }

  func insert(_ value: UserSettings) {
    lock.withLock {
      if settings.count >= 4096 { settings.removeAll(keepingCapacity: true) }
      settings.insert(value)
    }
  }
}
