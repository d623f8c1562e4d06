import Foundation
import TallyCore
import TallyStore

/// Records every entity a user's tables hold into the change feed, through a recorder, which
/// stamps only what differs from the feed. Used where rows arrive in bulk (a restore) and,
/// on SQLite, for rows written before sync existed.
public enum SyncMirror {
  public enum Step {
    case record(SyncRecord)
    /// The days of this habit: each store records a habit's days together, from its own
    /// rows, so a snapshot given here need not hold them.
    case days(UUID)
  }

  /// `habit` for a snapshot given to ``steps(_:)``: its days are the store's to record.
  public static func withoutDays(_ habit: Habit) -> UserSnapshot.HabitWithEntries {
    UserSnapshot.HabitWithEntries(habit: habit, entries: [])
  }

  /// What to record of `rows`, in feed order: parents before their children.
  public static func steps(_ rows: UserSnapshot) throws -> [Step] {
    var steps: [Step] = [.record(try .settings(rows.settings))]
    for item in rows.habits {
      steps += [.record(try .habit(item.habit)), .days(item.habit.id)]
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
