import Foundation
import GRDB
import TallyCore
import TallyLocalization
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
  var language: String?

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case id, name
    case timeZone = "time_zone"
    case daySwitchHour = "day_switch_hour"
    case firstWeekday = "first_weekday"
    case locale
    case showDatePickerGrid = "show_date_picker_grid"
    case showGridDates = "show_grid_dates"
    case language
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
    language = user.settings.language?.code
  }

  func user() throws(StoreError) -> User {
    let id = try Stored.uuid(id, "users.id")
    guard let weekday = Weekday(name: firstWeekday) else {
      throw .corrupt("user \(name) has first weekday '\(firstWeekday)'")
    }
    let settings = UserSettings(
      timeZone: timeZone, daySwitchHour: daySwitchHour, firstWeekday: weekday, locale: locale,
      showDatePickerGrid: showDatePickerGrid, showGridDates: showGridDates,
      language: try Stored.language(language, "user \(name)"))
    return try Stored.valid("user \(name)") { () throws(ValidationError) in
      try User(id: id, name: name, settings: settings)
    }
  }
}
