import Foundation
import TallyCore
import TallyStore

/// Everything of one user's that the feed carries, as the tables hold it.
public struct SyncMirrorRows {
  public var settings: UserSettings
  public var habits: [Habit]
  public var journal: [JournalEntry]
  public var chat: [ChatMessage]
  public var shows: [Show]
  public var episodes: [Episode]
  public var prices: [Price]

  public init(
    settings: UserSettings, habits: [Habit], journal: [JournalEntry], chat: [ChatMessage], shows: [Show],
    episodes: [Episode], prices: [Price]
  ) {
    self.settings = settings
    self.habits = habits
    self.journal = journal
    self.chat = chat
    self.shows = shows
    self.episodes = episodes
    self.prices = prices
  }
}

/// Records every entity a user's tables hold into the change feed, through a recorder, which
/// stamps only what differs from the feed. Used where rows arrive in bulk (a restore) and,
/// on SQLite, for rows written before sync existed.
public enum SyncMirror {
  public enum Step {
    case record(SyncRecord)
    /// The days of this habit: each store records a habit's days together.
    case days(UUID)
  }

  /// What to record, in feed order: parents before their children.
  public static func steps(_ rows: SyncMirrorRows) throws -> [Step] {
    var steps: [Step] = [.record(try .settings(rows.settings))]
    for habit in rows.habits {
      steps += [.record(try .habit(habit)), .days(habit.id)]
    }
    steps += rows.journal.map { .record(.journal($0.day, text: $0.text)) }
    steps += try rows.chat.map { .record(try .chat($0)) }
    let episodes = Dictionary(grouping: rows.episodes, by: \.showID)
    for show in rows.shows {
      steps.append(.record(try .show(show)))
      steps += try (episodes[show.id] ?? []).map { .record(try .episode($0)) }
    }
    steps += rows.prices.map { .record(.price(country: $0.country, providerID: $0.providerID, $0)) }
    return steps
  }
}
