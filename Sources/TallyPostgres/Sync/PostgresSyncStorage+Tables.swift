import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// The tables the rest of Tally reads, as ``SyncMerge`` writes them.
extension PostgresSyncStorage {
  func saveSettings(_ settings: UserSettings) throws {
    try wait { try await $0.saveSettings(settings, of: $1) }
  }

  func habitExists(_ id: UUID) throws -> Bool { try exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(id))") }

  func writeHabit(_ habit: Habit, inserting: Bool) throws {
    try wait { try await $0.writeHabit(habit, user: $1, inserting: inserting) }
  }

  /// Its days and reminder deliveries go with it: ON DELETE CASCADE.
  func deleteHabit(_ id: UUID) throws { try execute("DELETE FROM habits WHERE id = \(id) AND user_id = \(user)") }

  func journalText(_ day: Day) throws -> String? {
    try wait { connection, user in
      try await connection.values(
        "SELECT text FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)", as: String.self
      ).first
    }
  }

  func saveJournal(_ entry: JournalEntry) throws { try wait { try await $0.saveJournalEntry(entry, user: $1) } }

  func deleteJournal(_ day: Day) throws {
    try execute("DELETE FROM journal_entries WHERE user_id = \(user) AND day = \(day.description)")
  }

  func keepJournalRevision(_ day: Day, text: String, stamp: HybridStamp, replacedBy: HybridStamp) throws {
    try execute(
      """
      INSERT INTO journal_revisions (user_id, day, text, stamp, replaced_by)
      VALUES (\(user), \(day.description), \(text), \(stamp.text), \(replacedBy.text))
      """)
  }

  func saveChat(_ message: ChatMessage) throws {
    try wait { try await $0.insertChatMessage(message, user: $1, replacing: true) }
  }

  func deleteChat(_ id: UUID) throws { try execute("DELETE FROM chat_messages WHERE id = \(id) AND user_id = \(user)") }

  func showExists(_ id: UUID) throws -> Bool { try exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(id))") }

  func userHasShow(_ id: UUID) throws -> Bool {
    try exists("SELECT EXISTS (SELECT 1 FROM shows WHERE id = \(id) AND user_id = \(user))")
  }

  func saveShow(_ show: Show) throws { try wait { try await $0.saveShow(show, user: $1) } }

  /// Its providers and episodes go with it: ON DELETE CASCADE.
  func deleteShow(_ id: UUID) throws { try execute("DELETE FROM shows WHERE id = \(id) AND user_id = \(user)") }

  func saveEpisode(_ episode: Episode) throws { try wait { connection, _ in try await connection.saveEpisodes([episode]) } }

  func savePrice(_ price: Price) throws { try wait { try await $0.savePrice(price, user: $1) } }

  func deletePrice(country: String, providerID: Int) throws {
    try execute("DELETE FROM prices WHERE user_id = \(user) AND country = \(country) AND provider_id = \(providerID)")
  }

  func userHasHabit(_ id: UUID) throws -> Bool {
    try exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(id) AND user_id = \(user))")
  }

  func savePause(_ pause: Pause) throws { try wait { try await $0.writePause(pause, user: $1) } }

  func deletePause(_ id: UUID) throws { try execute("DELETE FROM pauses WHERE id = \(id) AND user_id = \(user)") }
}

extension PostgresConnection {
  /// Sets or clears the day an entry (`HABIT/DAY`) names. Each statement names the user's
  /// habit, so a day of a habit not (yet) here writes nothing; a done day of a measurable
  /// habit holds the amount given, or the target when an older client, which knows only
  /// "done", sent none; other rows hold no amount.
  func writeDay(_ id: String, _ value: HabitEntryValue, user: UUID) async throws {
    guard case .entry(let habit, let day) = try SyncID(SyncKey(kind: .entry, id: id)) else { return }
    if let status = value.status {
      try await run(
        """
        INSERT INTO habit_entries (habit_id, day, status, note, amount)
        SELECT \(habit), \(day.description), \(status.rawValue), \(value.note),
          CASE WHEN \(status == .done) AND kind = 'measurable' THEN coalesce(\(value.amount?.thousandths), target) END
        FROM habits WHERE id = \(habit) AND user_id = \(user)
        ON CONFLICT (habit_id, day) DO UPDATE SET
          status = excluded.status, note = excluded.note, amount = excluded.amount
        """)
    } else {
      try await run(
        """
        DELETE FROM habit_entries WHERE habit_id = \(habit) AND day = \(day.description)
          AND habit_id IN (SELECT id FROM habits WHERE user_id = \(user))
        """)
    }
  }
}
