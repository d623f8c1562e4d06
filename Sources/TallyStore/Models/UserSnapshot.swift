import Foundation
import TallyCore

/// Everything one user owns, taken whole: what an export reads and an import restores.
///
/// The user's id and name are not part of it, so a snapshot of one user can fill another
/// (``RestoreTarget``). API tokens, sessions and reminder deliveries are left out: they are
/// secrets or one server's bookkeeping, not the user's data.
public struct UserSnapshot: Hashable, Sendable {
  public struct HabitWithEntries: Hashable, Sendable {
    public var habit: Habit
    /// By day, at most one a day.
    public var entries: [HabitEntry]

    public init(habit: Habit, entries: [HabitEntry]) {
      self.habit = habit
      self.entries = entries
    }
  }

  public var settings: UserSettings
  /// In list order (``StoreOrder/habits(_:_:)``), archived ones included.
  public var habits: [HabitWithEntries]
  /// By day.
  public var journal: [JournalEntry]
  /// As ``JournalRepository/chatMessages(in:for:)`` orders them; restoring keeps this order,
  /// which breaks ties between messages sent at the same instant.
  public var chat: [ChatMessage]
  /// By ``StoreOrder/shows(_:_:)``.
  public var shows: [Show]
  /// Show by show in the order of ``shows``, each show's by season and number.
  public var episodes: [Episode]
  /// By country, then provider.
  public var prices: [Price]
  /// Of one habit among ``habits`` or of all; by first day.
  public var pauses: [Pause]

  public init(
    settings: UserSettings, habits: [HabitWithEntries] = [], journal: [JournalEntry] = [],
    chat: [ChatMessage] = [], shows: [Show] = [], episodes: [Episode] = [], prices: [Price] = [],
    pauses: [Pause] = []
  ) {
    self.settings = settings
    self.habits = habits
    self.journal = journal
    self.chat = chat
    self.shows = shows
    self.episodes = episodes
    self.prices = prices
    self.pauses = pauses
  }

  /// The snapshot with every rule a store keeps checked that needs no database: valid
  /// settings, habits and notes (notes come back trimmed, blank ones removed), nothing listed
  /// twice, providers listed once per country, and every episode's show in ``shows``.
  ///
  /// Every store calls this before it writes, so all of them refuse the same snapshots with
  /// the same errors; callers may call it earlier to refuse a file before opening a database.
  public func checked() throws(StoreError) -> UserSnapshot {
    var result = self
    result.settings = try StoreError.validating { () throws(ValidationError) in
      try settings.validated()
    }
    var habitIDs: Set<UUID> = []
    for index in habits.indices {
      let habit = try StoreError.validating { () throws(ValidationError) in
        try habits[index].habit.validated()
      }
      guard habitIDs.insert(habit.id).inserted else {
        throw .conflict("the habit \(habit.id.storeText) is listed twice")
      }
      var days: Set<Day> = []
      var entries: [HabitEntry] = []
      for entry in habits[index].entries {
        guard days.insert(entry.day).inserted else {
          throw .conflict("the day \(entry.day) of the habit '\(habit.name)' is listed twice")
        }
        entries.append(try EntryNote.checked(entry, of: habit))
      }
      result.habits[index] = HabitWithEntries(habit: habit, entries: entries)
    }
    var journalDays: Set<Day> = []
    for entry in journal where !journalDays.insert(entry.day).inserted {
      throw .conflict("the journal entry of \(entry.day) is listed twice")
    }
    var messageIDs: Set<UUID> = []
    for index in chat.indices {
      guard messageIDs.insert(chat[index].id).inserted else {
        throw .conflict("the chat message \(chat[index].id.storeText) is listed twice")
      }
      result.chat[index].sentAt = StoredInstant.normalized(chat[index].sentAt)
    }
    var showIDs: Set<UUID> = []
    for show in shows {
      guard showIDs.insert(show.id).inserted else {
        throw .conflict("the show \(show.id.storeText) is listed twice")
      }
      try ShowRules.checkProviders(show)
    }
    var episodeKeys: Set<String> = []
    for (index, episode) in episodes.enumerated() {
      // The snapshot is wrong, not the request's path: a 422 naming the record, not a 404.
      guard showIDs.contains(episode.showID) else {
        throw .invalid(
          ValidationError(
            field: "episodes[\(index)]",
            rule: "(S\(episode.season)E\(episode.number)) names the show \(episode.showID.storeText), which is not among the shows"))
      }
      let key = "\(episode.showID.storeText) \(episode.season) \(episode.number)"
      guard episodeKeys.insert(key).inserted else {
        throw .conflict(
          "episode \(episode.number) of season \(episode.season) of the show "
            + "\(episode.showID.storeText) is listed twice")
      }
    }
    _ = try StoreError.validating { () throws(ValidationError) in try PriceTable(prices) }
    var pauseIDs: Set<UUID> = []
    for (index, pause) in pauses.enumerated() {
      guard pauseIDs.insert(pause.id).inserted else {
        throw .conflict("the pause \(pause.id.storeText) is listed twice")
      }
      if let habit = pause.habitID, !habitIDs.contains(habit) {
        throw .invalid(
          ValidationError(
            field: "pauses[\(index)]", rule: "names the habit \(habit.storeText), which is not among the habits"))
      }
      result.pauses[index] = try PauseRules.check(pause, against: pauses)
    }
    return result
  }
}

/// Who receives a restored ``UserSnapshot``.
public enum RestoreTarget: Hashable, Sendable {
  /// A user to create with this id and name (trimmed); neither may be taken.
  case newUser(id: UUID, name: String)
  /// An existing user who has no habits, journal entries, chat messages or shows yet.
  case emptyUser(UUID)
}

extension StoreError {
  /// What every store throws when asked to restore into a user who has data: a restore never
  /// merges.
  public static func userHasData(_ user: User) -> StoreError {
    .conflict(
      "the user '\(user.name)' already has habits, journal entries, chat messages or shows; "
        + "a snapshot is restored only into a user who has none")
  }
}
