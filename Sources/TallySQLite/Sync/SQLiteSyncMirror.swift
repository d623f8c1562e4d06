import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// SQLite's side of ``SyncMirror``: a user's rows, read, and a habit's days stamped as rows.
enum SQLiteSyncMirror {
  static func record(_ db: Database, user: UUID, with sync: SyncRecorder) throws {
    guard let record = try UserRecord.fetchOne(db, key: user.storeText) else { return }
    let shows = try SQLiteStore.shows(db, user: user)
    let rows = UserSnapshot(
      settings: try record.user().settings,
      habits: try SQLiteStore.habits(db, user: user, includingArchived: true).map(SyncMirror.withoutDays),
      journal: try SQLiteStore.journalEntries(db, in: Day.allTime, user: user),
      chat: try SQLiteStore.chatMessages(db, in: Day.allTime, user: user), shows: shows,
      episodes: try shows.flatMap { show in
        try EpisodeRecord.filter(EpisodeRecord.Columns.showID == show.id.storeText).fetchAll(db).map { try $0.episode() }
      },
      prices: try SQLiteStore.priceTable(db, user: user).prices)
    for step in try SyncMirror.steps(rows) {
      switch step {
      case .record(let change): try sync.record(change)
      case .days(let habit): try sync.markedDays(habit)
      }
    }
  }
}

/// Mirrors the rows of users who have none in the feed yet: every user when a database
/// first opens at schema v6. Stamped genesis, so any later real change wins over them.
enum SyncBackfill {
  /// Looks before it takes the write lock: nearly every open has nothing to do.
  static func runIfNeeded(_ writer: some DatabaseWriter) throws {
    let pending = try writer.read { db in
      try db.tableExists("sync_heads") && !unmirrored(db).isEmpty
    }
    if pending { try writer.write(run) }
  }

  static func unmirrored(_ db: Database) throws -> [String] {
    try String.fetchAll(
      db, sql: "SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM sync_heads) ORDER BY id")
  }

  static func run(_ db: Database) throws {
    let users = try unmirrored(db)
    for text in users {
      let user = try Stored.uuid(text, "users.id")
      try SQLiteSyncMirror.record(db, user: user, with: try SyncRecorder(genesisIn: db, user: user))
      // A user with nothing to mirror still gets a head, so this runs once per user.
      _ = try db.execute(
        sql: "INSERT INTO sync_heads (user_id, position) VALUES (?, 0) ON CONFLICT DO NOTHING", arguments: [text])
    }
  }
}
