import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// The tables the rest of Tally reads, written from an entity's merged state.
extension PostgresSyncApplier {
  mutating func materialize(_ id: SyncID, _ key: SyncKey, _ state: SyncEntity, replacing before: SyncEntity?)
    async throws
  {
    switch id {
    case .settings:
      guard state.isComplete(.settings) else { return }
      let settings = try SyncFields.decode(UserSettings.self, state.fields).validated()
      try await connection.saveSettings(settings, of: user)
    case .habit(let habitID):
      try await materializeHabit(habitID, key, state)
    case .entry(let habit, let day):
      try await materializeEntry(habit, day, state)
    case .journal(let day):
      try await materializeJournal(day, state, replacing: before)
    case .chat(let messageID):
      if state.deleted != nil {
        try await connection.run("DELETE FROM chat_messages WHERE id = \(messageID) AND user_id = \(user)")
      } else if state.isComplete(.chat) {
        let message = try SyncFields.decode(
          ChatMessage.self, state.fields, adding: ["id": .string(messageID.storeText)])
        try await connection.insertChatMessage(message, user: user, replacing: true)
      }
    case .show(let showID):
      try await materializeShow(showID, key, state)
    case .episode(let show, let season, let number):
      guard
        try await connection.exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(show) AND user_id = \(user))"),
        state.isComplete(.episode)
      else { return }
      let episode = try SyncFields.decode(
        Episode.self, state.fields,
        adding: ["showID": .string(show.storeText), "season": .int(Int64(season)), "number": .int(Int64(number))])
      try await connection.saveEpisodes([episode])
    case .price(let country, let providerID):
      guard state.isComplete(.price) else { return }
      if let price = try SyncFields.price(state.fields, country: country, providerID: providerID) {
        try await connection.savePrice(price, user: user)
      } else {
        try await connection.run(
          "DELETE FROM prices WHERE user_id = \(user) AND country = \(country) AND provider_id = \(providerID)")
      }
    }
  }

  private mutating func materializeHabit(_ habitID: UUID, _ key: SyncKey, _ state: SyncEntity) async throws {
    if state.deleted != nil {
      // Entries and reminder deliveries go with it: ON DELETE CASCADE.
      try await connection.run("DELETE FROM habits WHERE id = \(habitID) AND user_id = \(user)")
      try await connection.removeSyncChildren(of: key, kind: .entry, user: user)
      return
    }
    guard state.isComplete(.habit) else { return }
    var habit = try SyncFields.decode(Habit.self, state.fields, adding: ["id": .string(habitID.storeText)])
      .validated()
    let existed = try await connection.exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(habitID))")
    habit.name = try await resolveNameClash(habit, key, state)
    try await connection.writeHabit(habit, user: user, inserting: !existed)
    if !existed {
      for (child, entity) in try await connection.syncChildren(of: key, kind: .entry, user: user) {
        if case .entry(let habit, let day) = try SyncID(child) { try await materializeEntry(habit, day, entity) }
      }
    }
  }

  private func materializeEntry(_ habit: UUID, _ day: Day, _ state: SyncEntity) async throws {
    // Each statement names the user's habit, so a day of a habit not (yet) here writes nothing.
    let value = try SyncFields.entry(state.fields)
    if let status = value.status {
      // A done day of a measurable habit holds the amount given, or the target when an older
      // client, which knows only "done", sent none; other rows hold no amount.
      try await connection.run(
        """
        INSERT INTO habit_entries (habit_id, day, status, note, amount)
        SELECT \(habit), \(day.description), \(status.rawValue), \(value.note),
          CASE WHEN \(status == .done) AND kind = 'measurable' THEN coalesce(\(value.amount?.thousandths), target) END
        FROM habits WHERE id = \(habit) AND user_id = \(user)
        ON CONFLICT (habit_id, day) DO UPDATE SET
          status = excluded.status, note = excluded.note, amount = excluded.amount
        """)
    } else {
      try await connection.run(
        """
        DELETE FROM habit_entries WHERE habit_id = \(habit) AND day = \(day.description)
          AND habit_id IN (SELECT id FROM habits WHERE user_id = \(user))
        """)
    }
  }

  /// The text a merge replaces is kept as a revision of the day (SPEC 11).
  private func materializeJournal(_ day: Day, _ state: SyncEntity, replacing before: SyncEntity?) async throws {
    let text = try SyncFields.journalText(state.fields, day: day)
    let old = try await connection.values(
      "SELECT text FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)", as: String.self
    ).first
    if let old, old != text, let replacedStamp = before?.stamps["text"], let winner = state.stamps["text"] {
      try await connection.keepJournalRevision(
        user: user, day: day, text: old, stamp: replacedStamp, replacedBy: winner)
    }
    if let text {
      try await connection.saveJournalEntry(try JournalEntry(day: day, text: text), user: user)
    } else {
      try await connection.run("DELETE FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)")
    }
  }

  private mutating func materializeShow(_ showID: UUID, _ key: SyncKey, _ state: SyncEntity) async throws {
    if state.deleted != nil {
      // Providers and episodes go with it: ON DELETE CASCADE.
      try await connection.run("DELETE FROM shows WHERE id = \(showID) AND user_id = \(user)")
      try await connection.removeSyncChildren(of: key, kind: .episode, user: user)
      return
    }
    guard state.isComplete(.show) else { return }
    var show = try SyncFields.decode(Show.self, state.fields, adding: ["id": .string(showID.storeText)])
    try ShowRules.checkProviders(show)
    show = try await resolveTMDBClash(show, key, state)
    let existed = try await connection.exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(showID))")
    try await connection.saveShow(show, user: user)
    if !existed {
      for (child, entity) in try await connection.syncChildren(of: key, kind: .episode, user: user) {
        try await materialize(try SyncID(child), child, entity, replacing: nil)
      }
    }
  }
}
