import Foundation
import TallyCore
import TallyStore
import TallyWire

/// Everything one user has, as `tally export` writes it and `tally import` reads it back:
/// full fidelity, so export → import into an empty database → export gives the same bytes.
///
/// Left out on purpose: API tokens and sessions (secrets, and only valid where they were
/// made) and reminder delivery records (bookkeeping of one server).
struct ExportDocument: Codable {
  static let formatName = "tally-export"
  static let currentVersion = 1

  var format: String
  var version: Int
  var user: UserJSON
  var habits: [HabitWithEntries]
  var journal: [JournalEntry]
  var chat: [ChatJSON]
  var shows: [ShowJSON]
  var episodes: [EpisodeJSON]
  var prices: [Price]

  struct UserJSON: Codable {
    var id: String
    var name: String
    var settings: UserSettings
  }

  struct HabitWithEntries: Codable {
    var habit: HabitJSON
    /// By day; `note` is absent when the day has none.
    var entries: [HabitEntry]
  }
}

// MARK: - Reading a user's data

extension ExportDocument {
  /// Reads everything of `user` from `store`, in the store's orders.
  static func read(user: User, from store: any Store) async throws -> ExportDocument {
    let id = user.id
    var habits: [HabitWithEntries] = []
    for habit in try await store.habits(for: id, includingArchived: true) {
      habits.append(
        HabitWithEntries(habit: HabitJSON(habit), entries: try await store.entries(of: habit.id, for: id)))
    }
    let shows = try await store.shows(for: id)
    var episodes: [EpisodeJSON] = []
    for show in shows {
      episodes += try await store.episodes(of: show.id, for: id).map(EpisodeJSON.init)
    }
    return ExportDocument(
      format: formatName, version: currentVersion,
      user: UserJSON(id: id.storeText, name: user.name, settings: user.settings),
      habits: habits,
      journal: try await store.journalEntries(in: Day.allTime, for: id),
      chat: try await store.chatMessages(in: Day.allTime, for: id).map(ChatJSON.init),
      shows: shows.map(ShowJSON.init),
      episodes: episodes,
      prices: try await store.priceTable(for: id).prices)
  }
}

// MARK: - Checking a document before anything is written

/// A document turned into the engine's values, every rule checked and every reference
/// resolved, so an import that starts writing has nothing left to refuse.
struct ImportPlan {
  let user: User
  let habits: [(habit: Habit, entries: [HabitEntry])]
  let journal: [JournalEntry]
  let chat: [ChatMessage]
  let shows: [Show]
  let episodes: [Episode]
  let prices: [Price]

  init(_ document: ExportDocument) throws {
    guard document.format == ExportDocument.formatName else {
      throw CommandFailure("The file is not a Tally export: its format is '\(document.format)'.")
    }
    guard document.version <= ExportDocument.currentVersion else {
      throw CommandFailure(
        "The file is a version \(document.version) export, written by a newer Tally; this one "
          + "reads version \(ExportDocument.currentVersion).")
    }
    user = try User(
      id: try WireID.uuid(document.user.id, field: "user id"), name: document.user.name,
      settings: document.user.settings)
    var habitIDs: Set<UUID> = []
    habits = try document.habits.map { item in
      let habit = try item.habit.habit()
      guard habitIDs.insert(habit.id).inserted else {
        throw CommandFailure("The file lists the habit \(habit.id.storeText) twice.")
      }
      var days: Set<Day> = []
      for entry in item.entries {
        guard days.insert(entry.day).inserted else {
          throw CommandFailure("The file lists \(entry.day) of the habit '\(habit.name)' twice.")
        }
        _ = try EntryNote.resolve(entry.note, keeping: nil)
      }
      return (habit, item.entries)
    }
    var journalDays: Set<Day> = []
    for entry in document.journal where !journalDays.insert(entry.day).inserted {
      throw CommandFailure("The file lists the journal entry of \(entry.day) twice.")
    }
    journal = document.journal
    var messageIDs: Set<UUID> = []
    chat = try document.chat.map { item in
      let message = try item.message()
      guard messageIDs.insert(message.id).inserted else {
        throw CommandFailure("The file lists the chat message \(message.id.storeText) twice.")
      }
      return message
    }
    var showIDs: Set<UUID> = []
    shows = try document.shows.map { item in
      let show = try item.show()
      guard showIDs.insert(show.id).inserted else {
        throw CommandFailure("The file lists the show \(show.id.storeText) twice.")
      }
      try ShowRules.checkProviders(show)
      return show
    }
    episodes = try document.episodes.map { item in
      let episode = try item.episode()
      guard showIDs.contains(episode.showID) else {
        throw CommandFailure(
          "The file has an episode of the show \(episode.showID.storeText), which it does not list.")
      }
      return episode
    }
    _ = try PriceTable(document.prices)
    prices = document.prices
  }

  /// Refuses ids another user of the database already has: the store would stop half-way.
  func checkIDsAreFree(in store: any Store, except target: UUID?) async throws {
    let habitIDs = Set(habits.map(\.habit.id))
    let showIDs = Set(shows.map(\.id))
    let messageIDs = Set(chat.map(\.id))
    for other in try await store.users() where other.id != target {
      if try await store.habits(for: other.id, includingArchived: true).contains(where: { habitIDs.contains($0.id) }) {
        throw CommandFailure("A habit in the file belongs to another user of this database ('\(other.name)').")
      }
      if try await store.shows(for: other.id).contains(where: { showIDs.contains($0.id) }) {
        throw CommandFailure("A show in the file belongs to another user of this database ('\(other.name)').")
      }
      if try await store.chatMessages(in: Day.allTime, for: other.id).contains(where: { messageIDs.contains($0.id) }) {
        throw CommandFailure("A chat message in the file belongs to another user of this database ('\(other.name)').")
      }
    }
  }

  /// Writes everything for `user`, whose own data is empty.
  func write(to store: any Store, for user: UUID) async throws {
    let table = try await store.priceTable(for: user)
    for price in table.prices {
      try await store.removePrice(country: price.country, providerID: price.providerID, for: user)
    }
    for price in prices {
      try await store.setPrice(price, for: user)
    }
    for (habit, entries) in habits {
      _ = try await store.createHabit(habit, for: user)
      // One call per (status, note): a whole history with no notes is two transactions.
      var groups: [Pair: [Day]] = [:]
      for entry in entries {
        groups[Pair(status: entry.status, note: entry.note), default: []].append(entry.day)
      }
      for (key, days) in groups.sorted(by: { ($0.key.status.rawValue, $0.key.note ?? "") < ($1.key.status.rawValue, $1.key.note ?? "") }) {
        try await store.setDays(
          days, of: habit.id, to: key.status == .done ? .done : .skipped, note: key.note ?? "",
          for: user)
      }
    }
    for entry in journal {
      try await store.setJournalEntry(entry, for: user)
    }
    for message in chat {
      try await store.addChatMessage(message, for: user)
    }
    for show in shows {
      try await store.saveShow(show, for: user)
    }
    if !episodes.isEmpty {
      try await store.saveEpisodes(episodes, for: user)
    }
  }

  private struct Pair: Hashable {
    let status: EntryStatus
    let note: String?
  }
}
