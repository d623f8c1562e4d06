import Foundation
import GRDB
import TallyCore
import TallyStore

/// A row of `users`: the user and their settings.
struct UserRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "users"

  var id: String
  var name: String
  var timeZone: String
  var daySwitchHour: Int
  var firstWeekday: String
  var locale: String
  var showDatePickerGrid: Bool
  var showGridDates: Bool

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case id, name
    case timeZone = "time_zone"
    case daySwitchHour = "day_switch_hour"
    case firstWeekday = "first_weekday"
    case locale
    case showDatePickerGrid = "show_date_picker_grid"
    case showGridDates = "show_grid_dates"
  }

  typealias Columns = CodingKeys

  init(_ user: User) {
    id = user.id.storeText
    name = user.name
    timeZone = user.settings.timeZone
    daySwitchHour = user.settings.daySwitchHour
    firstWeekday = user.settings.firstWeekday.name
    locale = user.settings.locale
    showDatePickerGrid = user.settings.showDatePickerGrid
    showGridDates = user.settings.showGridDates
  }

  func user() throws(StoreError) -> User {
    let id = try Stored.uuid(id, "users.id")
    guard let weekday = Weekday(name: firstWeekday) else {
      throw .corrupt("user \(name) has first weekday '\(firstWeekday)'")
    }
    let settings = UserSettings(
      timeZone: timeZone, daySwitchHour: daySwitchHour, firstWeekday: weekday, locale: locale,
      showDatePickerGrid: showDatePickerGrid, showGridDates: showGridDates)
    return try Stored.valid("user \(name)") { () throws(ValidationError) in
      try User(id: id, name: name, settings: settings)
    }
  }
}

/// Turning stored text back into values, with errors that say which row is damaged.
enum Stored {
  static func uuid(_ text: String, _ what: String) throws(StoreError) -> UUID {
    guard let id = UUID(uuidString: text) else { throw .corrupt("\(what) '\(text)' is not a UUID") }
    return id
  }

  static func day(_ text: String, _ what: String) throws(StoreError) -> Day {
    guard let day = Day(text) else { throw .corrupt("\(what) '\(text)' is not a day YYYY-MM-DD") }
    return day
  }

  static func instant(_ text: String, _ what: String) throws(StoreError) -> Date {
    guard let date = InstantText.date(text) else {
      throw .corrupt("\(what) '\(text)' is not an instant like 2026-03-08T06:30:00.000Z")
    }
    return date
  }

  static func valid<T>(_ what: String, _ body: () throws(ValidationError) -> T) throws(StoreError)
    -> T
  {
    do {
      return try body()
    } catch {
      throw .corrupt("\(what): \(error.field) \(error.rule)")
    }
  }
}
