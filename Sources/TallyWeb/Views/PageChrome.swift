import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The frame around every page: title, navigation, who is signed in, theme and assets.
struct PageChrome: Sendable {
  /// The app's sections, in the order the navigation shows them.
  enum Section: String, CaseIterable, Sendable {
    case today, habits, statistics, calendar, settings

    var href: String { "/\(rawValue)" }
  }

  struct NavLink: Sendable {
    let label: String
    let href: String
    let current: Bool
    let icon: String
  }

  let title: String
  /// "Settings · Tally", in the page's language.
  let fullTitle: String
  /// `<html lang dir>`: the language the page's text is in, and which way it reads.
  let lang: String
  let dir: String
  /// The locale the scripts write clock times in (`en-GB`, `de`): the account's when it is of
  /// the page's language, as PageDays does on the server.
  let clockLocale: String
  let skipToContent: String
  /// The words the page's scripts write, as JSON escaped for `<body data-words>`.
  let scriptWords: Markup
  let userName: String?
  /// Whose page it is: the offline outbox keeps each account's changes apart.
  let userID: String?
  let nav: [NavLink]
  /// `system`, `dark` or `light`: a class on `<html>`; `system` follows the device.
  let theme: String
  let stylesheet: String
  /// Loaded first: the others say their words through it.
  let wordsScript: String
  let script: String
  /// Statistics, Calendar and Settings.
  let pagesStylesheet: String
  let pagesScript: String
  /// Drafts, the journal and shows pages: kept apart from app.js, which draws the grids.
  let featuresStylesheet: String
  let featuresScript: String
  /// The outbox and its clock (shared with the service worker), and the offline forms.
  let syncScript: String
  let offlineScript: String
  let icon: String
  let notice: String?
  /// Whether the page follows the account's live stream (docs/sync.md "Live changes"): the
  /// pages that show data, not forms.
  let live: Bool
  /// The feed position the page shows, read before its data: a change past it is news.
  let liveHead: String

  init(
    title: String, section: Section?, user: User?, request: Request, notice: String? = nil,
    live: StoreRevision? = nil, speech: PageSpeech = .english
  ) {
    let assets = Assets.shared
    self.title = title
    fullTitle = speech.translator.text("page.title", ["page": title])
    lang = speech.lang
    dir = speech.dir
    clockLocale =
      user.map {
        PageDays.writingLocale(account: Locale(identifier: $0.settings.locale), page: speech.translator.locale)
          .identifier.replacing("_", with: "-")
      } ?? speech.lang
    skipToContent = speech.translator.text("page.skipToContent")
    scriptWords = speech.scriptWords
    self.userName = user?.name
    self.userID = user?.id.storeText
    self.nav =
      user == nil
      ? []
      : Section.allCases.map {
        NavLink(label: speech.translator.text("nav.\($0.rawValue)"), href: $0.href, current: $0 == section, icon: $0.rawValue)
      }
    self.theme = Theme(request: request).rawValue
    self.stylesheet = assets.href("app.css")
    self.wordsScript = assets.href("words.js")
    self.script = assets.href("app.js")
    self.pagesStylesheet = assets.href("pages.css")
    self.pagesScript = assets.href("pages.js")
    self.featuresStylesheet = assets.href("features.css")
    self.featuresScript = assets.href("features.js")
    self.syncScript = assets.href("sync-core.js")
    self.offlineScript = assets.href("offline.js")
    self.icon = assets.href("icon.svg")
    self.notice = notice
    self.live = user != nil && live != nil
    self.liveHead = live.map { String($0.head) } ?? ""
  }
}

/// The colour scheme, chosen per device in Settings and kept in a cookie: a phone and a
/// laptop may want different ones, and following the system is the default.
enum Theme: String, CaseIterable, Sendable {
  case system, dark, light

  static let cookie = "tally_theme"

  init(request: Request) {
    self = request.cookies[Self.cookie].flatMap { Theme(rawValue: $0.value) } ?? .system
  }
}

/// What a page template is rendered with: the frame and the page's own values.
struct PageContext<Content>: Sendable where Content: Sendable {
  let chrome: PageChrome
  let content: Content
}

extension Templates {
  func page<Content: Sendable>(
    _ template: String, title: String, section: PageChrome.Section?, user: User?, request: Request,
    content: Content, status: HTTPResponse.Status = .ok, notice: String? = nil, live: StoreRevision? = nil,
    speech: PageSpeech = .english
  ) -> HTMLPage {
    let chrome = PageChrome(
      title: title, section: section, user: user, request: request, notice: notice, live: live, speech: speech)
    let context = PageContext(chrome: chrome, content: content)
    return HTMLPage(render(context, template, words: speech.translator), status: status)
  }
}
