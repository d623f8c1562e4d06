import Foundation
import TallyCore
import TallyLocalization

/// What an account's reminders say (push, webhooks, the calendar feed), from the catalogs: in
/// the account's language, else the language of its locale (no browser asks when a reminder
/// is sent), else English. Times are written as the locale writes them (07:30, 7:30 AM).
public enum ReminderSpeech {
  public static func words(for settings: UserSettings) -> ReminderWords {
    let language =
      settings.language ?? LanguageNegotiation.supported(settings.locale.replacing("_", with: "-")) ?? .english
    let speech = PageLanguages.speech(language)
    // Stored settings are checked; a calendar that cannot be built falls back to English words.
    guard let calendar = try? settings.dayCalendar() else { return .english }
    let days = PageDays(speech: speech, calendar: calendar)
    let t = speech.translator
    let time = days.time(_:)
    return ReminderWords(
      remindersCalendar: t.text("reminder.remindersCalendar"), episodesCalendar: t.text("reminder.episodesCalendar"),
      unnamed: t.text("reminder.unnamed"), test: t.text("reminder.test"),
      message: { t.text("reminder.message", ["habit": $0, "time": time($1)]) },
      feedDescription: { t.text("reminder.feedDescription", ["time": time($0), "day": days.name($1, includingYear: true)]) })
  }
}
