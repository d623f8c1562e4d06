import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// Puts the changes of one write transaction into the user's change feed, all with one new
/// stamp, and into the outbox when this database is a replica. Every store write that changes
/// what sync carries goes through one, inside its own transaction, so a change and its record
/// commit together or not at all.
struct SyncRecorder {
  let db: Database
  let user: UUID
  let stamp: HybridStamp
  private let queues: Bool

  /// A recorder stamping with the next tick of this database's clock.
  init(_ db: Database, user: UUID, now: Date) throws {
    let device = try db.syncDevice()
    stamp = HybridClock.tick(latest: try db.latestStamp(), now: now, device: device)
    try db.saveLatestStamp(stamp)
    self.db = db
    self.user = user
    queues = try db.isReplica(user)
  }

  /// A recorder for what predates sync or is a default rather than an edit: its genesis
  /// stamp loses to any real change, and nothing is queued.
  init(genesisIn db: Database, user: UUID) throws {
    stamp = HybridStamp.genesis(try db.syncDevice())
    self.db = db
    self.user = user
    queues = false
  }

  /// Records the fields of `key` that differ from what the feed holds.
  func record(_ key: SyncKey, _ fields: [String: SyncValue]) throws {
    var entity = try db.syncEntity(key, user: user) ?? SyncEntity()
    guard let change = try merge(fields, of: key, into: &entity) else { return }
    try db.saveSyncEntity(entity, key, user: user)
    if queues { try db.enqueue(change, user: user) }
  }

  /// The change that sets the fields differing from `entity`'s, merged into it; `nil` when
  /// nothing differs. The caller saves the entity.
  private func merge(_ fields: [String: SyncValue], of key: SyncKey, into entity: inout SyncEntity) throws
    -> SyncChange?
  {
    let changed = fields.filter { name, value in entity.fields[name] != value || entity.stamps[name] == nil }
    guard !changed.isEmpty else { return nil }
    let change = SyncChange(
      kind: key.kind, id: key.id, stamp: stamp, fields: key.kind.changesWhole ? fields : changed)
    return entity.merge(change) == .applied ? change : nil
  }

  /// Records a deletion that is final; the children's records go with it.
  func recordDeletion(_ key: SyncKey) throws {
    var entity = try db.syncEntity(key, user: user) ?? SyncEntity()
    let change = SyncChange(kind: key.kind, id: key.id, stamp: stamp, deleted: true)
    guard entity.merge(change) == .applied else { return }
    try db.saveSyncEntity(entity, key, user: user)
    for child in SyncKind.allCases where child.parent == key.kind {
      try db.removeSyncChildren(of: key, kind: child, user: user)
    }
    if queues { try db.enqueue(change, user: user) }
  }
}

// MARK: - Each kind

extension SyncRecorder {
  func settings(_ settings: UserSettings) throws {
    try record(SyncKey(kind: .settings, id: SyncID.settingsID), SyncFields.encode(settings, kind: .settings))
  }

  func habit(_ habit: Habit) throws {
    try record(SyncKey(kind: .habit, id: habit.id.storeText), SyncFields.encode(habit, kind: .habit))
  }

  func habitDeleted(_ id: UUID) throws {
    try recordDeletion(SyncKey(kind: .habit, id: id.storeText))
  }

  /// A day the store has just cleared.
  func clearedDay(_ habit: UUID, _ day: Day) throws {
    try record(SyncKey(kind: .entry, id: SyncID.entry(habit, day)), SyncFields.entry(status: nil, note: nil))
  }

  /// The days of `habit` the store has just set: a write that changes a day's value leaves
  /// its row without a stamp (a write that changes nothing keeps it), so each such row takes
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
    var position = try db.takeSyncPositions(userText, count: entries.count)
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO habit_entries (habit_id, day, status, note, amount, user_id, stamp, position)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """)
    for entry in entries {
      try insert.execute(arguments: EntryRecord(habit: habit, entry: entry).arguments + [userText, stamp.text, position])
      position += 1
      if queues {
        try db.enqueue(
          SyncChange(
            kind: .entry, id: habitText + "/" + entry.day.description, stamp: stamp,
            fields: SyncFields.entry(status: entry.status, note: entry.note, amount: entry.amount)),
          user: user)
      }
    }
  }

  func journal(_ day: Day, text: String?) throws {
    try record(SyncKey(kind: .journal, id: day.description), SyncFields.journal(text: text))
  }

  func chat(_ message: ChatMessage) throws {
    try record(SyncKey(kind: .chat, id: message.id.storeText), SyncFields.encode(message, kind: .chat))
  }

  func chatDeleted(_ id: UUID) throws {
    try recordDeletion(SyncKey(kind: .chat, id: id.storeText))
  }

  func show(_ show: Show) throws {
    try record(SyncKey(kind: .show, id: show.id.storeText), SyncFields.encode(show, kind: .show))
  }

  func showDeleted(_ id: UUID) throws {
    try recordDeletion(SyncKey(kind: .show, id: id.storeText))
  }

  func episode(_ episode: Episode) throws {
    try record(
      SyncKey(kind: .episode, id: SyncID.episode(episode.showID, episode.season, episode.number)),
      SyncFields.encode(episode, kind: .episode))
  }

  func price(country: String, providerID: Int, _ price: Price?) throws {
    try record(
      SyncKey(kind: .price, id: SyncID.price(country, providerID)),
      SyncFields.price(amount: price?.amount, currency: price?.currency))
  }
}
