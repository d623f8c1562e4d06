import Foundation

/// The iCalendar documents Tally publishes, built from values the caller already read: no
/// store, no clock (`stamp` is the DTSTAMP every event carries, normally now).
///
/// Times are UTC instants, never floating or zone-qualified local times: the instant of each
/// reminder comes from ``DayCalendar/instant(of:on:)``, which already resolves DST gaps and
/// overlaps by SPEC 7's rule, so every calendar app rings at the same moment without having to
/// agree with us about VTIMEZONE rules. The feed is recomputed on every fetch, so a change of
/// time zone or of the zone's rules shows on the next refresh (docs/reminders.md).
public enum CalendarFeeds {
  public static let productID = "-//Tally//Tally Reminders//EN"

  /// One reminder occurrence per VEVENT, each with a DISPLAY alarm at its start.
  /// `habits` names the habits the occurrences belong to; unknown ids get a generic title.
  public static func reminders(
    _ occurrences: [ReminderOccurrence], habits: [Habit], stamp: Date, refreshMinutes: Int = 60,
    words: ReminderWords = .english
  ) -> String {
    let byID = Dictionary(habits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var ics = header(name: words.remindersCalendar, refreshMinutes: refreshMinutes)
    for occurrence in occurrences {
      let title = byID[occurrence.habitID].map(title(of:)) ?? words.unnamed
      ics.begin("VEVENT")
      ics.text("UID", "reminder/\(occurrence.key)@tally")
      ics.instant("DTSTAMP", stamp)
      ics.instant("DTSTART", occurrence.instant)
      ics.raw("DURATION", "PT5M")
      ics.text("SUMMARY", title)
      ics.text("DESCRIPTION", words.feedDescription(at: occurrence.time, on: occurrence.day))
      ics.raw("TRANSP", "TRANSPARENT")
      ics.begin("VALARM")
      ics.raw("ACTION", "DISPLAY")
      ics.text("DESCRIPTION", title)
      ics.raw("TRIGGER", "PT0S", parameters: ";RELATED=START")
      ics.end("VALARM")
      ics.end("VEVENT")
    }
    ics.end("VCALENDAR")
    return ics.text
  }

  /// One all-day VEVENT per episode; `shows` gives their titles.
  public static func episodes(
    _ episodes: [Episode], shows: [Show], stamp: Date, refreshMinutes: Int = 360, words: ReminderWords = .english
  ) -> String {
    let titles = Dictionary(shows.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    var ics = header(name: words.episodesCalendar, refreshMinutes: refreshMinutes)
    for episode in episodes {
      let show = titles[episode.showID] ?? "Show"
      ics.begin("VEVENT")
      ics.text("UID", "episode/\(episode.showID.uuidString.lowercased())/\(episode.season)/\(episode.number)@tally")
      ics.instant("DTSTAMP", stamp)
      ics.day("DTSTART", episode.airDay)
      ics.day("DTEND", episode.airDay.adding(days: 1))
      ics.text("SUMMARY", "\(show) S\(episode.season)E\(episode.number): \(episode.title)")
      ics.raw("TRANSP", "TRANSPARENT")
      ics.end("VEVENT")
    }
    ics.end("VCALENDAR")
    return ics.text
  }

  /// One all-day VEVENT per completed (`.done`) day of each habit, a measurable day's amount
  /// and unit after the name. The UID names the habit and the day, so importing a newer export
  /// updates the events instead of duplicating them.
  public static func completions(_ habits: [(habit: Habit, entries: [HabitEntry])], stamp: Date) -> String {
    var ics = header(name: "Tally completions", refreshMinutes: nil)
    for (habit, entries) in habits {
      for entry in entries.sorted(by: { $0.day < $1.day }) where entry.status == .done {
        ics.begin("VEVENT")
        ics.text("UID", "done/\(habit.id.uuidString.lowercased())/\(entry.day)@tally")
        ics.instant("DTSTAMP", stamp)
        ics.day("DTSTART", entry.day)
        ics.day("DTEND", entry.day.adding(days: 1))
        let amount = entry.amount.map { amount in
          ": \(amount)" + (habit.measure.map { $0.unit.isEmpty ? "" : " \($0.unit)" } ?? "")
        }
        ics.text("SUMMARY", "✓ " + title(of: habit) + (amount ?? ""))
        if let note = entry.note, !note.isEmpty { ics.text("DESCRIPTION", note) }
        ics.raw("TRANSP", "TRANSPARENT")
        ics.end("VEVENT")
      }
    }
    ics.end("VCALENDAR")
    return ics.text
  }

  private static func title(of habit: Habit) -> String {
    guard let icon = habit.icon, icon.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
    else { return habit.name }
    return icon + " " + habit.name
  }

  private static func header(name: String, refreshMinutes: Int?) -> ICalendarWriter {
    var ics = ICalendarWriter()
    ics.begin("VCALENDAR")
    ics.raw("VERSION", "2.0")
    ics.text("PRODID", productID)
    ics.raw("CALSCALE", "GREGORIAN")
    ics.raw("METHOD", "PUBLISH")
    ics.text("NAME", name)
    ics.text("X-WR-CALNAME", name)
    if let refreshMinutes {
      // RFC 7986 and its older Microsoft/Apple spelling: how often a subscriber should fetch.
      ics.raw("REFRESH-INTERVAL", "PT\(refreshMinutes)M", parameters: ";VALUE=DURATION")
      ics.raw("X-PUBLISHED-TTL", "PT\(refreshMinutes)M")
    }
    return ics
  }
}
