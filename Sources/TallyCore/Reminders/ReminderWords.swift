import Foundation

/// What reminders say where no page is drawn — a push notification, a webhook's message, the
/// calendar feed — in the words of the account's language. The engine takes them as values
/// (the catalogs are the web app's); ``english`` is what a caller without them gets.
public struct ReminderWords: Sendable {
  public let remindersCalendar: String
  public let episodesCalendar: String
  /// The title of a reminder whose habit is not among those given.
  public let unnamed: String
  public let test: String
  private let message: @Sendable (_ habit: String, _ time: WallTime) -> String
  private let feedDescription: @Sendable (_ time: WallTime, _ day: Day) -> String

  public init(
    remindersCalendar: String, episodesCalendar: String, unnamed: String, test: String,
    message: @escaping @Sendable (_ habit: String, _ time: WallTime) -> String,
    feedDescription: @escaping @Sendable (_ time: WallTime, _ day: Day) -> String
  ) {
    self.remindersCalendar = remindersCalendar
    self.episodesCalendar = episodesCalendar
    self.unnamed = unnamed
    self.test = test
    self.message = message
    self.feedDescription = feedDescription
  }

  /// "Time for Read (07:30)."
  public func message(habit: String, at time: WallTime) -> String { message(habit, time) }

  /// "Reminder set for 07:30 on 2026-03-08."
  public func feedDescription(at time: WallTime, on day: Day) -> String { feedDescription(time, day) }

  public static let english = ReminderWords(
    remindersCalendar: "Tally reminders", episodesCalendar: "Tally episodes", unnamed: "Habit reminder",
    test: "This is a test notification from Tally: reminders will arrive here.",
    message: { habit, time in "Time for \(habit) (\(time))." },
    feedDescription: { time, day in "Reminder set for \(time) on \(day)." })
}
