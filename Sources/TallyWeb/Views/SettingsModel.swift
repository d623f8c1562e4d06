import Foundation
import TallyLocalization
import TallyCore
import TallyHTTP
import TallyStore

/// What the Settings page shows: the settings form as typed (with an error beside each field
/// that was refused), the device's theme, the API tokens, and export and import.
struct SettingsModel: Sendable {
  struct Option: Sendable {
    let value: String
    let label: String
    let selected: Bool
  }

  struct Token: Sendable {
    let id: String
    let name: String
    /// "Created 2026-03-08 07:30 · expires …".
    let about: String
    let revokeLabel: String
  }

  /// A token just made: its secret is on this page and nowhere else, ever.
  struct NewToken: Sendable {
    let name: String
    let secret: String
    /// "Token “name” created.", in the page's language (set when the page is drawn).
    var created = ""
  }

  /// The settings fields as text, so a refused form comes back exactly as it was typed.
  struct Fields: Sendable {
    var timeZone: String
    var daySwitchHour: String
    var firstWeekday: String
    var locale: String
    var showDatePickerGrid: Bool
    var showGridDates: Bool

    init(_ settings: UserSettings) {
      timeZone = settings.timeZone
      daySwitchHour = String(settings.daySwitchHour)
      firstWeekday = settings.firstWeekday.name
      locale = settings.locale
      showDatePickerGrid = settings.showDatePickerGrid
      showGridDates = settings.showGridDates
    }

    init(
      timeZone: String, daySwitchHour: String, firstWeekday: String, locale: String, showDatePickerGrid: Bool,
      showGridDates: Bool
    ) {
      self.timeZone = timeZone
      self.daySwitchHour = daySwitchHour
      self.firstWeekday = firstWeekday
      self.locale = locale
      self.showDatePickerGrid = showDatePickerGrid
      self.showGridDates = showGridDates
    }
  }

  /// Each field's error, by the form's field name.
  struct Errors: Sendable {
    var timeZone: String?
    var daySwitchHour: String?
    var firstWeekday: String?
    var locale: String?
    var theme: String?
    var language: String?
    var tokenName: String?

    var settingsCount: Int { [timeZone, daySwitchHour, firstWeekday, locale].compactMap(\.self).count }
  }

  /// One browser that receives reminders by Web Push.
  struct PushDevice: Sendable {
    let id: String
    let name: String
    let endpoint: String
    let sinceText: String
  }

  /// Every channel that reminds the user (feed, webhook, push devices), and what only the
  /// owner may download.
  struct Channels: Sendable {
    let feedSince: String?
    let feedSinceText: String?
    let webhookURL: String
    let hasWebhook: Bool
    let kinds: [Option]
    let pushDevices: [PushDevice]
    let isOwner: Bool

    init(
      feedSince: Date?, webhook: Webhook?, pushDevices: [PushSubscription], isOwner: Bool, calendar: DayCalendar?,
      t: Translator
    ) {
      let formatter = SettingsModel.instantFormatter(calendar)
      self.feedSince = feedSince.map { formatter.string(from: $0) }
      feedSinceText = self.feedSince.map { t.text("settings.feedSince", ["since": $0]) }
      self.pushDevices = pushDevices.map {
        PushDevice(
          id: $0.id.storeText, name: $0.name, endpoint: $0.endpoint.absoluteString,
          sinceText: t.text("settings.deviceSince", ["since": formatter.string(from: $0.createdAt)]))
      }
      webhookURL = webhook?.url.absoluteString ?? ""
      hasWebhook = webhook != nil
      let kind = webhook?.kind ?? .json
      kinds = Webhook.Kind.allCases.map {
        let label =
          switch $0 {
          case .ntfy: "ntfy"
          case .gotify: "Gotify"
          case .json: t.text("settings.kindJSON")
          }
        return Option(value: $0.rawValue, label: label, selected: $0 == kind)
      }
      self.isOwner = isOwner
    }
  }

  static let timeZones = TimeZone.knownTimeZoneIdentifiers.sorted()
  /// Language and region pairs only: a bare language names no country for the calendar.
  static let locales = Locale.availableIdentifiers.filter { $0.contains("_") }.sorted()
  /// Each with its words' key under `settings.lifetime.`.
  static let tokenLifetimes: [(days: Int?, key: String)] = [(nil, "never"), (30, "days30"), (90, "days90"), (365, "year")]
  /// The kinds of file the import offers, each with its words' key under `settings.format.`.
  static let importFormats: [(value: String, key: String)] = [
    ("", "tellFromFile"),
    ("loop", "loop"),
    ("loop-csv", "loopCsv"),
    ("beaver", "beaver"),
    ("habitbull", "habitbull"),
    ("rewire", "rewire"),
    ("tickmate", "tickmate"),
    ("streaks", "streaks"),
    ("habitkit", "habitkit"),
    ("tablehabit", "tablehabit"),
    ("habitica", "habitica"),
    ("habitica-csv", "habiticaCsv"),
    ("daylio", "daylio"),
    ("dayone", "dayone"),
    ("dayone-classic", "dayoneClassic"),
    ("csv", "csv"),
    ("json", "json"),
  ]

  let fields: Fields
  let errors: Errors
  let hasSettingsErrors: Bool
  let errorSummary: String?
  let timeZones: [String]
  let locales: [String]
  let weekdays: [Option]
  let themes: [Option]
  let tokens: [Token]
  let tokenName: String
  let lifetimes: [Option]
  let formats: [Option]
  let newToken: NewToken?
  let channels: Channels?
  let signIn: SignIn?
  /// "As the browser asks", then each language named in itself; the account's is selected.
  let languages: [LanguageChoice]

  struct LanguageChoice: Sendable {
    let value: String
    let label: String
    /// The language the label is written in, for `<option lang>`; none for the page's own words.
    let lang: String?
    let selected: Bool
  }

  static func languageChoices(_ chosen: Language?, t: Translator) -> [LanguageChoice] {
    [LanguageChoice(value: "", label: t.text("settings.languageBrowser"), lang: nil, selected: chosen == nil)]
      + Language.allCases.map {
        LanguageChoice(value: $0.code, label: $0.endonym, lang: $0.code, selected: $0 == chosen)
      }
  }

  /// Sign-in through the provider: whether this account is linked to it, and for the owner,
  /// invitations; the words from the catalogs.
  struct SignIn: Sendable {
    let linked: Bool
    let isOwner: Bool
    let heading: String
    let linkedText: String
    let linkHelp: String
    let linkButton: String
    let invitations: String
    let invitationsHelp: String
    let inviteButton: String

    init(provider: String, linked: Bool, isOwner: Bool, speech: PageSpeech = .english) {
      let t = speech.translator
      let named = ["provider": provider]
      self.linked = linked
      self.isOwner = isOwner
      heading = t.text("providerSettings.heading", named)
      linkedText = t.text("providerSettings.linked", named)
      linkHelp = t.text("providerSettings.linkHelp", named)
      linkButton = t.text("providerSettings.link", named)
      invitations = t.text("providerSettings.invitations")
      invitationsHelp = t.text("providerSettings.invitationsHelp", named)
      inviteButton = t.text("providerSettings.invite")
    }
  }

  init(
    fields: Fields, errors: Errors = Errors(), theme: Theme, words: PageDays, tokens: [APIToken], calendar: DayCalendar?,
    tokenName: String = "", tokenLifetime: String = "", newToken: NewToken? = nil, channels: Channels? = nil,
    signIn: SignIn? = nil, languages: [LanguageChoice] = []
  ) {
    let t = words.t
    self.channels = channels
    self.signIn = signIn
    self.languages = languages
    self.fields = fields
    self.errors = errors
    hasSettingsErrors = errors.settingsCount > 0
    errorSummary =
      switch errors.settingsCount {
      case 0: nil
      case let count: t.plural("settings.errorSummary", count: count)
      }
    timeZones = Self.timeZones
    locales = Self.locales
    weekdays = Weekday.allCases.map {
      Option(value: $0.name, label: words.weekdayName($0), selected: $0.name == fields.firstWeekday)
    }
    themes = [
      Option(value: Theme.system.rawValue, label: t.text("settings.theme.system"), selected: theme == .system),
      Option(value: Theme.dark.rawValue, label: t.text("settings.theme.dark"), selected: theme == .dark),
      Option(value: Theme.light.rawValue, label: t.text("settings.theme.light"), selected: theme == .light),
    ]
    let formatter = Self.instantFormatter(calendar)
    self.tokens = tokens.map {
      let created = formatter.string(from: $0.createdAt)
      return Token(
        id: $0.id.storeText, name: $0.name,
        about: $0.expiresAt.map {
          t.text("settings.tokenAboutExpires", ["created": created, "expires": formatter.string(from: $0)])
        } ?? t.text("settings.tokenAbout", ["created": created]),
        revokeLabel: t.text("settings.revokeLabel", ["name": $0.name]))
    }
    self.tokenName = tokenName
    lifetimes = Self.tokenLifetimes.map {
      let value = $0.days.map(String.init) ?? ""
      return Option(value: value, label: t.text("settings.lifetime.\($0.key)"), selected: value == tokenLifetime)
    }
    formats = Self.importFormats.map { Option(value: $0.value, label: t.text("settings.format.\($0.key)"), selected: false) }
    self.newToken = newToken.map {
      var made = $0
      made.created = t.text("settings.tokenCreated", ["name": $0.name])
      return made
    }
  }

  /// Instants as the user reads them: `2026-03-08 07:30` in their zone.
  static func instantFormatter(_ calendar: DayCalendar?) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = calendar?.timeZone ?? TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter
  }
}
