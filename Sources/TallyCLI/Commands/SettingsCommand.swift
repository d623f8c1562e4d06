import ArgumentParser
import TallyCore
import TallyLocalization
import TallyStore

/// `tally settings [--time-zone TZ] [--day-switch-hour H] [--first-weekday DAY] [--language CODE] [--json]`
struct SettingsCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "settings", abstract: "Show your settings, or change the ones given.")

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("An IANA time zone like Europe/Berlin.", valueName: "tz"))
  var timeZone: String?

  @Option(help: ArgumentHelp("Hours before this one (0 to 6) still belong to the day before.", valueName: "h"))
  var daySwitchHour: Int?

  @Option(help: ArgumentHelp("The day weeks start on.", valueName: "day"))
  var firstWeekday: WeekdayArgument?

  @Option(help: ArgumentHelp("A locale like en_US or fr_FR, for day and month names.", valueName: "locale"))
  var locale: String?

  @Option(
    help: ArgumentHelp(
      "The language pages and reminders speak: \(UnknownLanguage.acceptedCodes.joined(separator: ", ")), or browser (as each browser asks).",
      valueName: "code"))
  var language: String?

  @Option(help: ArgumentHelp("Show the Today view's date picker grid.", valueName: "on|off"))
  var datePickerGrid: Switch?

  @Option(help: ArgumentHelp("Show day numbers on every grid circle.", valueName: "on|off"))
  var gridDates: Switch?

  @Flag(help: "Print JSON only: the settings after any change.")
  var json = false

  func validate() throws {
    _ = try checked { () throws(TallyCore.ValidationError) in try apply(to: UserSettings(timeZone: "UTC")).validated() }
  }

  /// `browser` clears the setting; anything else must be a language's code.
  static let browser = "browser"

  func apply(to settings: UserSettings) throws(TallyCore.ValidationError) -> UserSettings {
    var settings = settings
    if let timeZone { settings.timeZone = timeZone }
    if let daySwitchHour { settings.daySwitchHour = daySwitchHour }
    if let firstWeekday { settings.firstWeekday = firstWeekday.weekday }
    if let locale { settings.locale = locale }
    if let datePickerGrid { settings.showDatePickerGrid = datePickerGrid == .on }
    if let gridDates { settings.showGridDates = gridDates == .on }
    if let language { settings.language = language == Self.browser ? nil : try Language.setting(language) }
    return settings
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    var settings = session.user.settings
    let changed = try checked { () throws(TallyCore.ValidationError) in try apply(to: settings) }
    if changed != settings {
      settings = try await session.store.updateSettings(changed, for: session.user.id).settings
    }
    if json {
      try session.output.json(settings)
      return
    }
    var table = TextTable([.left, .left])
    table.add(["user", session.user.name])
    table.add(["time zone", settings.timeZone])
    table.add(["day switch hour", "\(settings.daySwitchHour)"])
    table.add(["first weekday", settings.firstWeekday.name])
    table.add(["locale", settings.locale])
    table.add(["date picker grid", settings.showDatePickerGrid ? "on" : "off"])
    table.add(["grid dates", settings.showGridDates ? "on" : "off"])
    table.add(["language", settings.language?.code ?? Self.browser])
    table.add(["database", session.databasePath])
    table.lines.forEach(session.output.line)
  }
}

/// `sunday` … `saturday`, any case.
struct WeekdayArgument: ExpressibleByArgument {
  let weekday: Weekday

  init?(argument: String) {
    guard let weekday = Weekday(name: argument) else { return nil }
    self.weekday = weekday
  }

  static var allValueStrings: [String] { Weekday.allCases.map(\.name) }
}

enum Switch: String, ExpressibleByArgument, CaseIterable {
  case on, off
}
