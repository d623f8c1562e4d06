import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Snapshots

extension PostgresStore {
  public func snapshot(of user: UUID) async throws -> UserSnapshot {
    // One snapshot of the database: a writer committing meanwhile is seen entirely or not at all.
    try await read(.repeatableReadOnly) { connection in
      let owner = try await connection.user(user)
      let entries = try await connection.entries(in: Day.allTime, user: user)
      let shows = try await connection.shows(of: user)
      let episodesByShow = Dictionary(grouping: try await connection.episodes(of: user), by: \.showID)
      return UserSnapshot(
        settings: owner.settings,
        habits: try await connection.habits(of: user, includingArchived: true).map { habit in
          UserSnapshot.HabitWithEntries(habit: habit, entries: entries[habit.id] ?? [])
        },
        journal: try await connection.journalEntries(in: Day.allTime, user: user),
        chat: try await connection.chatMessages(in: Day.allTime, user: user),
        shows: shows,
        episodes: shows.flatMap { episodesByShow[$0.id] ?? [] },
        prices: try await connection.priceTable(of: user).prices,
        pauses: try await connection.pauses(of: user))
    }
  }

  @discardableResult
  public func restore(_ snapshot: UserSnapshot, into target: RestoreTarget) async throws -> User {
    let snapshot = try snapshot.checked()
    let now = clock()
    return try await write { connection in
      let user: User
      switch target {
      case .newUser(let id, let name):
        user = try User.checked(id: id, name: name, settings: snapshot.settings)
        try await connection.insertUser(user)
        try await connection.lockUser(id)
      case .emptyUser(let id):
        try await connection.lockUser(id)
        var existing = try await connection.user(id)
        guard try await !connection.holdsData(id) else { throw StoreError.userHasData(existing) }
        existing.settings = snapshot.settings
        try await connection.saveSettings(snapshot.settings, of: id)
        let sync = try await PostgresSyncRecorder(connection, user: id, now: now)
        for price in try await connection.priceTable(of: id).prices {
          try await sync.record(.price(country: price.country, providerID: price.providerID, nil))
        }
        try await connection.run("DELETE FROM prices WHERE user_id = \(id)")
        user = existing
      }
      // Ids another record already has (this server may hold the account the file came
      // from) are replaced, inside this transaction: the inserts below still refuse a clash.
      var taken: [SnapshotRecordKind: Set<UUID>] = [:]
      taken[.habit] = Set(try await connection.values(
        "SELECT id FROM habits WHERE id = ANY(\(snapshot.habits.map(\.habit.id))::uuid[])", as: UUID.self))
      taken[.chatMessage] = Set(try await connection.values(
        "SELECT id FROM chat_messages WHERE id = ANY(\(snapshot.chat.map(\.id))::uuid[])", as: UUID.self))
      taken[.show] = Set(try await connection.values(
        "SELECT id FROM shows WHERE id = ANY(\(snapshot.shows.map(\.id))::uuid[])", as: UUID.self))
      taken[.pause] = Set(try await connection.values(
        "SELECT id FROM pauses WHERE id = ANY(\(snapshot.pauses.map(\.id))::uuid[])", as: UUID.self))
      let fresh = try snapshot.withFreshIDs { kind, id in taken[kind]?.contains(id) ?? false }
      for item in fresh.habits {
        try await connection.writeHabit(item.habit, user: user.id, inserting: true)
        try await connection.insertEntries(item.entries, habit: item.habit.id)
      }
      for journal in fresh.journal { try await connection.saveJournalEntry(journal, user: user.id) }
      for message in fresh.chat { try await connection.insertChatMessage(message, user: user.id) }
      for show in fresh.shows { try await connection.saveShow(show, user: user.id) }
      try await connection.saveEpisodes(fresh.episodes)
      for price in fresh.prices { try await connection.savePrice(price, user: user.id) }
      let sync = try await PostgresSyncRecorder(connection, user: user.id, now: now)
      for pause in fresh.pauses {
        try await connection.writePause(pause, user: user.id)
        try await sync.record(.pause(pause))
      }
      try await PostgresSyncMirror.record(connection, user: user.id, with: sync)
      return user
    }
  }
}

extension PostgresConnection {
  /// Whether the user has any habit, journal entry, chat message or show.
  func holdsData(_ user: UUID) async throws -> Bool {
    try await exists(
      """
      SELECT EXISTS (SELECT 1 FROM habits WHERE user_id = \(user))
        OR EXISTS (SELECT 1 FROM journal_entries WHERE user_id = \(user))
        OR EXISTS (SELECT 1 FROM chat_messages WHERE user_id = \(user))
        OR EXISTS (SELECT 1 FROM shows WHERE user_id = \(user))
      """)
  }

  /// Every episode of the user's shows, by season and number.
  func episodes(of user: UUID) async throws -> [Episode] {
    try await rows(
      """
      SELECT e.* FROM episodes e JOIN shows s ON s.id = e.show_id
      WHERE s.user_id = \(user) ORDER BY e.season, e.number
      """
    ).map(PostgresRows.episode)
  }

  /// Inserts a habit's entries in one statement; `keepingExisting` leaves a day that has an
  /// entry as it is and returns the days it added.
  @discardableResult
  func insertEntries(_ entries: [HabitEntry], habit: UUID, keepingExisting: Bool = false) async throws -> Set<Day> {
    guard !entries.isEmpty else { return [] }
    let days = try await values(
      """
      INSERT INTO habit_entries (habit_id, day, status, note, amount)
      SELECT \(habit), day, status, CASE WHEN has_note THEN note END, CASE WHEN has_amount THEN amount END
      FROM unnest(\(entries.map(\.day.description))::text[], \(entries.map(\.status.rawValue))::text[],
        \(entries.map { $0.note != nil })::boolean[], \(entries.map { $0.note ?? "" })::text[],
        \(entries.map { $0.amount != nil })::boolean[], \(entries.map { $0.amount?.thousandths ?? 0 })::bigint[])
        AS given(day, status, has_note, note, has_amount, amount)
      \(unescaped: keepingExisting ? "ON CONFLICT (habit_id, day) DO NOTHING" : "")
      RETURNING day
      """, as: String.self)
    return Set(days.compactMap(Day.init))
  }
}
