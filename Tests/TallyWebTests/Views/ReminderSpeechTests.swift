import Foundation
import TallyCore
import TallyLocalization
import Testing

@testable import TallyWeb

/// What reminders say outside the pages speaks the account's language, and writes times and
/// days as its locale does.
@Suite struct ReminderSpeechTests {
  let eight = try! WallTime(hour: 8)
  let day = Day("2026-03-09")!

  @Test func anAccountsLanguageDecidesTheWords() throws {
    let german = ReminderSpeech.words(for: UserSettings(timeZone: "Europe/Berlin", language: .german))
    #expect(german.message(habit: "Lesen", at: eight) == "Zeit für Lesen (08:00).")
    #expect(german.remindersCalendar == "Tally-Erinnerungen")
    // The day is named in German, with its year: the feed's events may lie in another year.
    let description = german.feedDescription(at: eight, on: day)
    #expect(description.contains("Montag"), "\(description)")
    #expect(description.contains("2026"), "\(description)")
    #expect(description.contains("08:00"), "\(description)")
  }

  /// No browser asks when a reminder goes out: an account that follows its browsers speaks the
  /// language of its locale, and writes the time as that locale does.
  @Test func withoutALanguageTheLocaleDecides() throws {
    let american = ReminderSpeech.words(for: UserSettings(timeZone: "America/New_York", locale: "en_US"))
    let message = american.message(habit: "Read", at: eight)
    #expect(message.hasPrefix("Time for Read (8:00"), "\(message)")
    #expect(message.contains("AM"), "\(message)")
    let british = ReminderSpeech.words(for: UserSettings(timeZone: "Europe/London", locale: "en_GB"))
    #expect(british.message(habit: "Read", at: eight) == "Time for Read (08:00).")
    let french = ReminderSpeech.words(for: UserSettings(timeZone: "Europe/Paris", locale: "fr_FR"))
    #expect(french.test == PageLanguages.shared.translator(for: .french).text("reminder.test"))
    #expect(french.test != ReminderWords.english.test)
  }

  /// Every language has the words, none of them a key.
  @Test(arguments: Language.allCases)
  func everyLanguageSaysItsOwnWords(_ language: Language) throws {
    let words = ReminderSpeech.words(for: UserSettings(timeZone: "UTC", language: language))
    for text in [
      words.message(habit: "Walk", at: eight), words.feedDescription(at: eight, on: day), words.unnamed,
      words.remindersCalendar, words.episodesCalendar, words.test,
    ] {
      #expect(!text.contains("reminder."), "\(language): \(text)")
      #expect(!text.contains("{{"), "\(language): \(text)")
    }
    #expect(words.message(habit: "Walk", at: eight).contains("Walk"))
    #expect(words.remindersCalendar.contains("Tally"))
    if language != .english { #expect(words.test != ReminderWords.english.test, "\(language)") }
  }
}
