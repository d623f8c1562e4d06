import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// SQLite's recorder: the shared one (``SyncFeedRecorder``) on the caller's transaction.
typealias SyncRecorder = SyncFeedRecorder<SQLiteSyncStorage>

extension SyncFeedRecorder where Storage == SQLiteSyncStorage {
  /// A recorder stamping with the next tick of this database's clock.
  init(_ db: Database, user: UUID, now: Date) throws {
    try self.init(SQLiteSyncStorage(db: db, user: user), now: now)
  }

  /// A recorder for what predates sync or is a default rather than an edit.
  init(genesisIn db: Database, user: UUID) throws {
    try self.init(genesis: SQLiteSyncStorage(db: db, user: user))
  }

  private var db: Database { storage.db }
  private var user: UUID { storage.user }

  /// A day the user has just cleared, recorded even when it held nothing.
  func clearedDay(_ habit: UUID, _ day: Day) throws {
    try record(.entry(habit, day, status: nil, note: nil).setByUser)
  }

  /// The days of `habit` the store has just set: a write leaves the rows it sets without a
  /// stamp (a bulk copy, only the rows it adds), so each such row takes
  /// this recorder's stamp and a feed position here, and is queued on a replica.
  func markedDays(_ habit: UUID) throws {
    let habitText = habit.storeText
    let rows = try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT day, status, note, amount FROM habit_entries INDEXED BY habit_entries_unrecorded
          WHERE habit_id = ? AND stamp IS NULL ORDER BY day
          """),
      arguments: [habitText])
    guard !rows.isEmpty else { return }
    let userText = user.storeText
    let ids = rows.map { row in habitText + "/" + (row["day"] as String) }
    let first = try db.takeSyncPositions(userText, count: rows.count)
    // Positions in the order of the days, as the rows were read; the unrecorded days are
    // found through their own small index, not among every day of the habit.
    try db.cachedStatement(
      sql: """
        UPDATE habit_entries SET user_id = ?1, stamp = ?2, position = ?3 + n.rank
        FROM (SELECT day, row_number() OVER (ORDER BY day) - 1 AS rank
          FROM habit_entries INDEXED BY habit_entries_unrecorded WHERE habit_id = ?4 AND stamp IS NULL) n
        WHERE habit_entries.habit_id = ?4 AND habit_entries.day = n.day
        """
    ).execute(arguments: [userText, stamp.text, first, habitText])
    if try db.entryHoldings(of: habitText[...], user: userText).feed {
      try db.removeSyncEntries(ids, user: user)
    }
    guard queues else { return }
    for (id, row) in zip(ids, rows) {
      try db.enqueue(SyncChange(kind: .entry, id: id, stamp: stamp, fields: Database.markedDayFields(row)), user: user)
    }
  }

  /// Writes a new habit's days (none of which it has) already stamped, with feed places after
  /// the habit's own, and queues them on a replica: a restore writes thousands per habit, and
  /// writing them unstamped to stamp them after costs each row a second write.
  func newDays(_ habit: UUID, _ entries: [HabitEntry]) throws {
    guard !entries.isEmpty else { return }
    let (habitText, userText) = (habit.storeText, user.storeText)
    let first = try db.takeSyncPositions(userText, count: entries.count)
    try db.insertNewDays(entries, of: habit, stamped: (userText, stamp.text, first))
    guard queues else { return }
    for entry in entries {
      try db.enqueue(
        SyncChange(
          kind: .entry, id: habitText + "/" + entry.day.description, stamp: stamp,
          fields: SyncFields.entry(status: entry.status, note: entry.note, amount: entry.amount)),
        user: user)
    }
  }
}
