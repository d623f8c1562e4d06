import Foundation
import TallyCore
import TallyLocalization

/// The words a page says about days, in the page's language: names of days, a date circle's
/// spoken label, the streak badge and the date row's header, a schedule.
///
/// A day's name comes from the account's locale setting when that locale is of the page's
/// language (it chose `en_GB` over `en_US`, say); otherwise from the language's own locale,
/// so a page in German never names an English month (docs/translating.md, "Dates").
struct PageDays: Sendable {
  let speech: PageSpeech
  let calendar: DayCalendar
  private let ownNames: Bool
  /// The locale clock times are written in: the account's when it is of the page's language
  /// (en_GB's 24-hour clock on an English page), else the language's own.
  let writingLocale: Locale
  /// Dates in UTC (days are calendar dates, not instants), in the page's language.
  private let dates: Date.FormatStyle
  private let fullDay: Date.FormatStyle
  /// The account's calendar, speaking the page's language: its month and weekday names.
  let names: DayCalendar

  init(speech: PageSpeech, calendar: DayCalendar) {
    self.speech = speech
    self.calendar = calendar
    let pageLocale = speech.translator.locale
    let parts = Self.localeParts(LocalePair(account: calendar.locale, page: pageLocale))
    writingLocale = parts.writing
    ownNames = parts.ownNames
    dates = parts.dates
    fullDay = parts.fullDay
    names =
      ownNames
      ? calendar
      : (try? DayCalendar(
        timeZone: calendar.timeZone, daySwitchHour: calendar.daySwitchHour, firstWeekday: calendar.firstWeekday,
        locale: pageLocale)) ?? calendar
  }

  var t: Translator { speech.translator }

  /// "Monday 1 September", with the year when asked.
  func name(_ day: Day, includingYear: Bool = false) -> String {
    if ownNames { return calendar.spokenName(of: day, includingYear: includingYear) }
    return (includingYear ? fullDay.year() : fullDay).format(Self.noon(of: day))
  }

  /// A time of day as the locale writes it: "07:30", "7:30 AM".
  func time(_ wall: WallTime) -> String {
    clock(in: .gmt).string(from: Date(timeIntervalSince1970: Double(wall.hour * 3600 + wall.minute * 60)))
  }

  /// An instant's time of day in the account's zone, as the locale writes it.
  func time(of instant: Date) -> String { clock(in: calendar.timeZone).string(from: instant) }

  /// The account's locale when it is of the page's language, else the page's; the scripts
  /// write clock times in it too (`PageChrome.clockLocale`).
  static func writingLocale(account: Locale, page: Locale) -> Locale {
    localeParts(LocalePair(account: account, page: page)).writing
  }

  /// What the days of a page need of its two locales, made once per pair: reading a locale's
  /// language and making date styles are ICU lookups a page should not repeat.
  private struct LocaleParts: Sendable {
    let writing: Locale
    let ownNames: Bool
    let dates: Date.FormatStyle
    let fullDay: Date.FormatStyle
  }

  private struct LocalePair: Hashable, Sendable {
    let account: Locale
    let page: Locale

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.account.identifier == rhs.account.identifier && lhs.page.identifier == rhs.page.identifier
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(account.identifier)
      hasher.combine(page.identifier)
    }
  }

  private static let localeParts = DrawnOnce(capacity: 256) { (pair: LocalePair) in
    let writing = pair.account.language.languageCode == pair.page.language.languageCode ? pair.account : pair.page
    let dates = Date.FormatStyle(timeZone: TimeZone(identifier: "UTC")!).locale(pair.page)
    return LocaleParts(
      writing: writing, ownNames: writing == pair.account, dates: dates, fullDay: dates.weekday(.wide).day().month(.wide))
  }

  private func clock(in zone: TimeZone) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = writingLocale
    formatter.timeZone = zone
    formatter.dateFormat = ClockPatterns.shared.pattern(for: writingLocale)
    return formatter
  }

  /// The name, with the year only when it is not `today`'s.
  func name(_ day: Day, near today: Day) -> String { name(day, includingYear: day.year != today.year) }

  /// What a screen reader says for a date circle: the day, then what holds on it, in a fixed
  /// order (today, journal entry, chat, selected).
  func label(of cell: DateCell, today: Day) -> String {
    let states = [
      (cell.tense == .today, "dayCell.today"), (cell.hasEntry, "dayCell.entry"), (cell.hasChat, "dayCell.chat"),
      (cell.isSelected, "dayCell.selected"),
    ].filter(\.0).map { t.text($0.1) }
    return ([name(cell.day, near: today)] + states).joined(separator: t.text("dayCell.separator"))
  }

  /// `nil` at 0: no badge.
  func streakBadge(_ length: Int) -> String? {
    length > 0 ? t.plural("today.streakBadge", count: length) : nil
  }

  func stripHeader(_ row: DateRow) -> String {
    [
      t.plural("today.streakBadge", count: row.streak), t.plural("today.chats", count: row.chats),
      t.plural("today.entries", count: row.entries),
    ].joined(separator: " • ")
  }

  /// A schedule as a habit's card and row say it: "daily", "3 a week", "Mon, Wed, Fri".
  func schedule(_ frequency: Frequency) -> String {
    switch frequency {
    case .daily: t.text("schedule.daily")
    case .weekly(let target): t.plural("schedule.weekly", count: target)
    case .timesInDays(let times, let days):
      t.plural("schedule.timesInDays", count: days, ["times": t.number(times)])
    case .monthly(let times): t.plural("schedule.monthly", count: times)
    case .weekdays(let days):
      days.ordered(from: calendar.firstWeekday).map(shortWeekday).joined(separator: t.text("dayCell.separator"))
    }
  }

  /// "Mon", in the page's language.
  func shortWeekday(_ weekday: Weekday) -> String { names.shortWeekdayName(weekday) }

  /// "Monday", in the page's language.
  func weekdayName(_ weekday: Weekday) -> String { names.weekdayName(weekday) }

  /// "Monday, Wednesday and Friday", as the language (or the account's locale of it) lists things.
  func list(_ items: [String]) -> String {
    items.formatted(.list(type: .and).locale(ownNames ? calendar.locale : t.locale))
  }

  /// "85%", in the language's digits and form.
  func percent(_ share: Double) -> String { Int((share * 100).rounded()).formatted(.percent.locale(t.locale)) }

  /// "September 2026", in the language's words and order.
  func monthAndYear(_ day: Day) -> String {
    ownNames ? "\(names.monthName(day.month)) \(day.year)" : Self.noon(of: day).formatted(dates.month(.wide).year())
  }

  /// "1 Sep", in the language's words and order.
  func shortDayAndMonth(_ day: Day) -> String {
    ownNames
      ? "\(day.day) \(names.shortMonthName(day.month))" : Self.noon(of: day).formatted(dates.day().month(.abbreviated))
  }

  /// Midday UTC of `day`: the instant whose UTC date is the day, for a formatter set to UTC.
  private static func noon(of day: Day) -> Date { Date(timeIntervalSince1970: Double(day.ordinal) * 86_400 + 43_200) }

  /// A habit's day as a screen reader says it after the date: "completed", "paused"…
  func spoken(_ state: HabitGrid.State) -> String { t.text("gridState.\(state)") }

  /// The period a habit's progress counts over: "this week", "this month"…
  func progressPeriod(of habit: Habit) -> String { t.text(ProgressPeriod(of: habit).key) }
}

extension ProgressPeriod {
  /// Its name's key in the catalogs.
  var key: String { "period.\(rawValue)" }
}

extension PageDays: Hashable {
  /// Two are the same when they say the same words: the language's and the locale's names.
  static func == (lhs: PageDays, rhs: PageDays) -> Bool {
    lhs.t.code == rhs.t.code && lhs.calendar.locale.identifier == rhs.calendar.locale.identifier
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(t.code)
    hasher.combine(calendar.locale.identifier)
  }
}

/// What a drawing kept by ``DrawnOnce`` is drawn from, with the words its labels say: the
/// same grid in two languages is two drawings.
struct Spoken<Source: Hashable & Sendable>: Hashable, Sendable {
  let source: Source
  let days: PageDays
  let today: Day
}

/// Each locale's short clock time (`HH:mm`, `h:mm a`), looked up once: only pages that show a
/// time need it, and ICU's skeleton lookup costs more than drawing the time. Date.FormatStyle's
/// `.shortened` drops the hour's leading zero where the locale keeps it.
private final class ClockPatterns: @unchecked Sendable {
  static let shared = ClockPatterns()
  private let lock = NSLock()
  private var patterns: [String: String] = [:]

  func pattern(for locale: Locale) -> String {
    if let known = lock.withLock({ patterns[locale.identifier] }) { return known }
    let pattern = DateFormatter.dateFormat(fromTemplate: "jmm", options: 0, locale: locale) ?? "HH:mm"
    lock.withLock { patterns[locale.identifier] = pattern }
    return pattern
  }
}
