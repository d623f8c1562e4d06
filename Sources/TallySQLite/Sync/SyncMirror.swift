import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// Records every entity a user's tables hold into the change feed, through a recorder: only
/// what differs from the feed gets its stamp (a day, only one written since it was recorded). Used where rows arrive in bulk (a restore) and
/// for rows written before sync existed (`SyncBackfill`).
enum SyncMirror {
  static func record(_ db: Database, user: UUID, with sync: SyncRecorder) throws {
    guard let record = try UserRecord.fetchOne(db, key: user.storeText) else { return }
    try sync.settings(try record.user().settings)
    for habit in try SQLiteStore.habits(db, user: user, includingArchived: true) {
      try sync.habit(habit)
      try sync.markedDays(habit.id)
    }
    let everyDay = Day.allTime
    for entry in try SQLiteStore.journalEntries(db, in: everyDay, user: user) {
      try sync.journal(entry.day, text: entry.text)
    }
    for message in try SQLiteStore.chatMessages(db, in: everyDay, user: user) {
      try sync.chat(message)
    }
    for show in try SQLiteStore.shows(db, user: user) {
      try sync.show(show)
      for episode in try EpisodeRecord.filter(EpisodeRecord.Columns.showID == show.id.storeText).fetchAll(db) {
        try sync.episode(try episode.episode())
      }
    }
    for price in try SQLiteStore.priceTable(db, user: user).prices {
      try sync.price(country: price.country, providerID: price.providerID, price)
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
      try SyncMirror.record(db, user: user, with: try SyncRecorder(genesisIn: db, user: user))
      // A user with nothing to mirror still gets a head, so this runs once per user.
      _ = try db.execute(
        sql: "INSERT INTO sync_heads (user_id, position) VALUES (?, 0) ON CONFLICT DO NOTHING", arguments: [text])
    }
  }
}
