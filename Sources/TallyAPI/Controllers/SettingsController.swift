import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The signed-in user's settings: the same object `tally settings --json` prints.
struct SettingsController {
  let services: AppServices

  /// Every field is optional: only those sent change.
  struct PatchBody: JSONBody {
    var timeZone: String?
    var daySwitchHour: Int?
    var firstWeekday: Weekday?
    var locale: String?
    var showDatePickerGrid: Bool?
    var showGridDates: Bool?
    /// Absent: kept; `null`: as the browser asks.
    var language: Language??

    private enum CodingKeys: String, CodingKey, CaseIterable {
      case timeZone, daySwitchHour, firstWeekday, locale, showDatePickerGrid, showGridDates, language
    }

    static let fields = Set(CodingKeys.allCases.map(\.rawValue))
    static let nullableFields: Set<String> = ["language"]
    static let wholeNumberRanges = ["daySwitchHour": DayCalendar.daySwitchHours]

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      timeZone = try c.decodeIfSent(String.self, forKey: .timeZone)
      daySwitchHour = try c.decodeIfSent(Int.self, forKey: .daySwitchHour)
      firstWeekday = try c.decodeIfSent(Weekday.self, forKey: .firstWeekday)
      locale = try c.decodeIfSent(String.self, forKey: .locale)
      showDatePickerGrid = try c.decodeIfSent(Bool.self, forKey: .showDatePickerGrid)
      showGridDates = try c.decodeIfSent(Bool.self, forKey: .showGridDates)
      language = try c.decodeNullable(String.self, forKey: .language).map { code throws(ValidationError) in
        try code.map { code throws(ValidationError) in try Language.setting(code) }
      }
    }

    func apply(to settings: UserSettings) -> UserSettings {
      var settings = settings
      if let timeZone { settings.timeZone = timeZone }
      if let daySwitchHour { settings.daySwitchHour = daySwitchHour }
      if let firstWeekday { settings.firstWeekday = firstWeekday }
      if let locale { settings.locale = locale }
      if let showDatePickerGrid { settings.showDatePickerGrid = showDatePickerGrid }
      if let showGridDates { settings.showGridDates = showGridDates }
      if let language { settings.language = language }
      return settings
    }
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("settings", use: show)
    group.patch("settings", use: change)
  }

  @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserSettings> {
    JSONResponse(try context.requireUser().settings)
  }

  @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserSettings> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(PatchBody.self, limit: services.configuration.maxBodySize)
    let changed = try body.apply(to: user.settings).validated()
    guard changed != user.settings else { return JSONResponse(changed) }
    return JSONResponse(try await services.store.updateSettings(changed, for: user.id).settings)
  }
}
