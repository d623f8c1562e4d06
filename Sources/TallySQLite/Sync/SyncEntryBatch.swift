import Foundation
import GRDB
import TallyStore
import TallySync

/// The entries of one merged batch, in memory until they are written to the feed together.
/// A first pull is 150,000 entries: reading what the feed holds of a page in one query, and
/// taking feed positions for the page at once, spares a lookup and an update of the user's
/// head per entry. An entry the feed does not hold yet is kept as its change, whose fields and
/// one stamp are the entry, without merging it into an empty entity first.
///
/// A marked day of a habit the user has is written to `habit_entries` with its stamp and
/// position, which makes it the entry's place in the feed; any other entry (a cleared day, a
/// day of a habit not complete here yet) is a `sync_entities` row.
struct SyncEntryBatch: SyncEntryBatchState {
  /// What the feed held, before this batch, of the entries the batch names.
  private var stored: [String: SyncEntity] = [:]
  /// The entries this batch changed, in the order they first changed, and where each one is.
  private var changed: [(id: String, state: State, day: HabitEntryValue)] = []
  private var place: [String: Int] = [:]
  /// Habits whose entries `sync_entities` holds some of: a day of theirs written to
  /// `habit_entries` has a feed row to remove.
  private var feedHolds: Set<Substring> = []

  private enum State {
    case merged(SyncEntity)
    case new(SyncChange)

    var entity: SyncEntity {
      switch self {
      case .merged(let entity): entity
      case .new(let change): SyncEntity(fields: change.fields, stamps: change.fields.mapValues { _ in change.stamp })
      }
    }

    /// An entry's one stamp (SPEC 11 merges it whole).
    var stamp: HybridStamp? {
      switch self {
      case .merged(let entity): entity.stamps.values.max()
      case .new(let change): change.stamp
      }
    }
  }

  /// Reads the feed's state of the entries `ids` names. Only the ids of habits the feed holds
  /// entries of are looked up: a first pull's pages bring each habit's days into a feed that
  /// has none of them yet.
  init(_ db: Database, user: UUID, ids: some Sequence<String>) throws {
    let userText = user.storeText
    var holds: [Substring: (feed: Bool, days: Bool)] = [:]
    var last: (habit: Substring, holds: (feed: Bool, days: Bool))?
    var feedIDs: [String] = []
    var dayIDs: [String] = []
    for id in ids {
      let habit = SyncID.split(id)?.head ?? id[...]
      if last?.habit != habit {
        let known = try holds[habit] ?? db.entryHoldings(of: habit, user: userText)
        holds[habit] = known
        last = (habit, known)
        if known.feed { feedHolds.insert(habit) }
      }
      if last?.holds.feed == true { feedIDs.append(id) }
      if last?.holds.days == true { dayIDs.append(id) }
    }
    if !feedIDs.isEmpty {
      let rows = try Row.fetchCursor(
        db.cachedStatement(
          sql: """
            SELECT entity_id, fields, stamps, deleted FROM sync_entities
            WHERE user_id = ? AND kind = 'entry' AND entity_id IN (SELECT value FROM json_each(?))
            """),
        arguments: [userText, SyncJSONText.array(feedIDs)])
      while let row = try rows.next() {
        stored[row["entity_id"]] = try Database.entity(row)
      }
    }
    if !dayIDs.isEmpty {
      let rows = try Row.fetchCursor(
        db.cachedStatement(
          sql: """
            SELECT r.value AS entity_id, e.status, e.note, e.amount, e.stamp
            FROM json_each(?) r CROSS JOIN habit_entries e
              ON e.habit_id = substr(r.value, 1, instr(r.value, '/') - 1) AND e.day = substr(r.value, instr(r.value, '/') + 1)
            WHERE e.user_id = ? AND e.stamp IS NOT NULL
            """),
        arguments: [SyncJSONText.array(dayIDs), userText])
      while let row = try rows.next() {
        stored[row["entity_id"]] = try Database.markedDayEntity(row)
      }
    }
  }

  func entity(_ id: String) -> SyncEntity? {
    if let index = place[id] { return changed[index].state.entity }
    return stored[id]
  }

  /// Keeps `entity`, merged, and the day it makes.
  mutating func save(_ entity: SyncEntity, id: String, day: HabitEntryValue) {
    if let index = place[id] {
      changed[index].state = .merged(entity)
      changed[index].day = day
    } else {
      add(.merged(entity), id: id, day: day)
    }
  }

  /// Keeps `change` as a whole entry: only for one `entity(_:)` has just found nothing of.
  mutating func addNew(_ change: SyncChange, day: HabitEntryValue) {
    add(.new(change), id: change.id, day: day)
  }

  private mutating func add(_ state: State, id: String, day: HabitEntryValue) {
    place[id] = changed.count
    changed.append((id, state, day))
  }

  /// Writes every changed entry with a new feed position, in the order they changed: the
  /// marked days of the user's habits with ``SyncEntryRows``, the rest with one statement
  /// for the feed, reading its rows from a JSON array of `[id, fields, stamps, deleted,
  /// position]`.
  func write(_ db: Database, user: UUID) throws {
    guard !changed.isEmpty else { return }
    let userText = user.storeText
    let first = try db.takeSyncPositions(userText, count: changed.count)
    let habits = try Self.habitsHeld(db, user: userText, Self.habits(naming: changed.lazy.map(\.id)))
    var feed = "["
    var days = SyncEntryRows()
    var unfed: [String] = []
    for (index, item) in changed.enumerated() {
      let position = first + Int64(index)
      let habit = SyncID.split(item.id)!.head
      let held = habits.contains(habit)
      if held, item.day.status != nil, let stamp = item.state.stamp {
        days.add(item.id, item.day, stamp: stamp, position: position)
        if feedHolds.contains(habit) { unfed.append(item.id) }
        continue
      }
      if held { days.clear(item.id) }
      feed += feed.utf8.count == 1 ? "[" : ",["
      SyncJSONText.append(item.id, to: &feed)
      switch item.state {
      case .merged(let entity):
        feed += "," + SyncJSON.text(entity.fields) + ","
        let stamps = SyncJSON.stampsText(entity.stamps)
        feed += stamps.hasPrefix("{") ? stamps : "\"\(stamps)\""
        feed += entity.deleted.map { ",\"\($0.text)\"" } ?? ",null"
      case .new(let change):
        feed += "," + SyncJSON.text(change.fields) + ",\"\(change.stamp.text)\",null"
      }
      feed += ",\(position)]"
    }
    if feed.utf8.count > 1 {
      try db.cachedStatement(
        sql: """
          INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
          SELECT ?1, 'entry', r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4
          FROM json_each(?2) r WHERE true
          ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
            stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position
          """
      ).execute(arguments: [userText, feed + "]"])
    }
    try db.removeSyncEntries(unfed, user: user)
    try days.write(db, user: user)
  }

  /// Writes `run` as rows when every habit it names is the user's and keeps no entry in
  /// `sync_entities` (a cleared day, or one that waited for its habit): the days' rows are
  /// then all the merge reads, and SQLite merges each with the day it meets (``SyncEntryRows``).
  /// Returns what it did, or `nil` when the run must be merged change by change.
  static func writeWhole(_ run: SyncEntryRun, _ db: Database, user: UUID) throws -> (applied: Int, unchanged: Int)? {
    let userText = user.storeText
    guard try habitsHeld(db, user: userText, run.habits).count == run.habits.count,
      try run.habits.allSatisfy({ try !db.entryHoldings(of: $0[...], user: userText).feed })
    else { return nil }
    let written = try SyncEntryRows.mark(
      db, rows: run.rows, spans: run.daySpans, user: user, first: db.takeSyncPositions(userText, count: run.count))
    return (written, run.count - written)
  }

  /// The habits `ids` name (`HABIT/DAY`), each once: a batch's ids come habit by habit.
  private static func habits(naming ids: some Sequence<String>) -> [String] {
    var habits: [String] = []
    for id in ids {
      let habit = SyncID.split(id)!.head
      if habits.last.map({ $0 != habit }) ?? true { habits.append(String(habit)) }
    }
    return habits
  }

  /// Which of `habits` the user has: only their days are rows.
  private static func habitsHeld(_ db: Database, user: String, _ habits: [String]) throws -> Set<Substring> {
    let held = try String.fetchAll(
      db.cachedStatement(sql: "SELECT id FROM habits WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))"),
      arguments: [user, SyncJSONText.array(habits)])
    return Set(held.map { $0[...] })
  }
}
