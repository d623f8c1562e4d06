import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Snapshots

extension SQLiteStore {
  public func snapshot(of user: UUID) async throws -> UserSnapshot {
    // One read transaction: a writer committing meanwhile is seen entirely or not at all.
    try await readAside { db in
      guard let record = try UserRecord.fetchOne(db, key: user.storeText) else {
        throw StoreError.notFound(.user(user))
      }
      let entries = try Self.entries(db, in: Day.allTime, user: user)
      let shows = try Self.shows(db, user: user)
      let episodes = try EpisodeRecord.fetchAll(
        db,
        sql: """
          SELECT e.* FROM episodes e JOIN shows s ON s.id = e.show_id
          WHERE s.user_id = ? ORDER BY e.season, e.number
          """,
        arguments: [user.storeText]
      )
      .map { record throws(StoreError) in try record.episode() }
      let episodesByShow = Dictionary(grouping: episodes, by: \.showID)
      return UserSnapshot(
        settings: try record.user().settings,
        habits: try Self.habits(db, user: user, includingArchived: true).map { habit in
          UserSnapshot.HabitWithEntries(habit: habit, entries: entries[habit.id] ?? [])
        },
        journal: try Self.journalEntries(db, in: Day.allTime, user: user),
        chat: try Self.chatMessages(db, in: Day.allTime, user: user),
        shows: shows,
        episodes: shows.flatMap { episodesByShow[$0.id] ?? [] },
        prices: try Self.priceTable(db, user: user).prices,
        pauses: try db.pauses(of: user))
    }
  }

  @discardableResult
  public func restore(_ snapshot: UserSnapshot, into target: RestoreTarget) async throws -> User {
    let snapshot = try snapshot.checked()
    let now = clock()
    return try await write { db in
      let user: User
      switch target {
      case .newUser(let id, let name):
        user = try User.checked(id: id, name: name, settings: snapshot.settings)
        try db.insertUser(user)
      case .emptyUser(let id):
        guard let record = try UserRecord.fetchOne(db, key: id.storeText) else {
          throw StoreError.notFound(.user(id))
        }
        var existing = try record.user()
        guard try !Self.holdsData(db, user: id) else { throw StoreError.userHasData(existing) }
        existing.settings = snapshot.settings
        try UserRecord(existing).update(db)
        let sync = try SyncRecorder(db, user: id, now: now)
        for price in try Self.priceTable(db, user: id).prices {
          try sync.record(.price(country: price.country, providerID: price.providerID, nil))
        }
        _ = try PriceRecord.filter(PriceRecord.Columns.userID == id.storeText).deleteAll(db)
        user = existing
      }
      // Ids another record already has (this server may hold the account the file came
      // from) are replaced, inside this transaction so no writer can take one meanwhile.
      let fresh = try snapshot.withFreshIDs { kind, id in
        switch kind {
        case .habit: return try HabitRecord.exists(db, key: id.storeText)
        case .chatMessage: return try ChatMessageRecord.exists(db, key: id.storeText)
        case .show: return try ShowRecord.exists(db, key: id.storeText)
        case .pause:
          return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pauses WHERE id = ?)", arguments: [id.storeText])
            ?? false
        }
      }
      let sync = try SyncRecorder(db, user: user.id, now: now)
      for item in fresh.habits {
        let id = item.habit.id.storeText
        guard try !HabitRecord.exists(db, key: id) else {
          throw StoreError.conflict("a habit with id \(id) already exists")
        }
        try HabitRecord(item.habit, user: user.id).write(db, inserting: true)
        try sync.record(.habit(item.habit))
        try sync.newDays(item.habit.id, item.entries)
      }
      for journal in fresh.journal {
        try JournalEntryRecord(journal, user: user.id).insert(db)
      }
      for message in fresh.chat {
        try ChatMessageRecord(message, user: user.id).insert(db)
      }
      for show in fresh.shows {
        try ShowRecord(show, user: user.id).insert(db)
        for provider in ShowProviderRecord.records(show) {
          try provider.insert(db)
        }
      }
      for episode in fresh.episodes {
        try EpisodeRecord(episode).insert(db)
      }
      for price in fresh.prices {
        try PriceRecord(price, user: user.id).insert(db)
      }
      for pause in fresh.pauses {
        try db.writePause(pause, user: user.id)
        try sync.record(.pause(pause))
      }
      try SQLiteSyncMirror.record(db, user: user.id, with: sync)
      return user
    }
  }

  /// Whether the user has any habit, journal entry, chat message or show.
  static func holdsData(_ db: Database, user: UUID) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (SELECT 1 FROM habits WHERE user_id = ?1)
          OR EXISTS (SELECT 1 FROM journal_entries WHERE user_id = ?1)
          OR EXISTS (SELECT 1 FROM chat_messages WHERE user_id = ?1)
          OR EXISTS (SELECT 1 FROM shows WHERE user_id = ?1)
        """,
      arguments: [user.storeText]) ?? false
  }
}
