import Foundation
import GRDB
import TallyStore
import TallySync

/// The entries of one merged batch, in memory until they are written to the feed together.
/// A first pull is 150,000 entries: reading what the feed holds of a page in one query, and
/// taking feed positions for the page at once, spares a lookup and an update of the user's
/// head per entry. An entry the feed does not hold yet is kept as its change, whose fields and
/// one stamp are the feed row, without merging it into an empty entity first.
struct SyncEntryBatch {
  /// What the feed held, before this batch, of the entries the batch names.
  private var stored: [String: SyncEntity] = [:]
  /// The entries this batch changed, in the order they first changed, and where each one is.
  private var changed: [(id: String, state: State, day: HabitEntryValue?)] = []
  private var place: [String: Int] = [:]

  private enum State {
    case merged(SyncEntity)
    case new(SyncChange)

    var entity: SyncEntity {
      switch self {
      case .merged(let entity): entity
      case .new(let change): SyncEntity(fields: change.fields, stamps: change.fields.mapValues { _ in change.stamp })
      }
    }
  }

  /// Reads the feed's state of the entries `ids` names. Only the ids of habits the feed holds
  /// entries of are looked up: a first pull's pages bring each habit's days into a feed that
  /// has none of them yet.
  init(_ db: Database, user: UUID, ids: some Sequence<String>) throws {
    let userText = user.storeText
    var holds: [Substring: Bool] = [:]
    var last: (habit: Substring, holds: Bool)?
    var list = "["
    for id in ids {
      let habit = id.utf8.firstIndex(of: UInt8(ascii: "/")).map { id[..<$0] } ?? id[...]
      if last?.habit != habit {
        let known = try holds[habit] ?? db.holdsSyncEntries(of: habit, user: userText)
        holds[habit] = known
        last = (habit, known)
      }
      guard last?.holds == true else { continue }
      if list.utf8.count > 1 { list += "," }
      SyncJSONText.append(id, to: &list)
    }
    guard list.utf8.count > 1 else { return }
    let rows = try Row.fetchCursor(
      db.cachedStatement(
        sql: """
          SELECT entity_id, fields, stamps, deleted FROM sync_entities
          WHERE user_id = ? AND kind = 'entry' AND entity_id IN (SELECT value FROM json_each(?))
          """),
      arguments: [userText, list + "]"])
    while let row = try rows.next() {
      let id: String = row["entity_id"]
      stored[id] = try Database.entity(row)
    }
  }

  func entity(_ id: String) -> SyncEntity? {
    if let index = place[id] { return changed[index].state.entity }
    return stored[id]
  }

  /// Keeps `entity`, merged, and the day it makes when the batch is to write days (a merge;
  /// a restore writes its days itself).
  mutating func save(_ entity: SyncEntity, id: String, day: HabitEntryValue? = nil) {
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

  private mutating func add(_ state: State, id: String, day: HabitEntryValue?) {
    place[id] = changed.count
    changed.append((id, state, day))
  }

  /// Writes every changed entry with a new feed position, in the order they changed, and the
  /// days kept with them: one statement for the feed, reading its rows from a JSON array of
  /// `[id, fields, stamps, deleted]`, and ``SyncEntryRows``'s two for the days.
  func write(_ db: Database, user: UUID) throws {
    guard !changed.isEmpty else { return }
    let userText = user.storeText
    let first = try db.takeSyncPositions(userText, count: changed.count)
    var feed = "["
    var days = SyncEntryRows()
    for (index, item) in changed.enumerated() {
      feed += index == 0 ? "[" : ",["
      SyncJSONText.append(item.id, to: &feed)
      switch item.state {
      case .merged(let entity):
        feed += "," + SyncJSON.text(entity.fields) + ","
        let stamps = SyncJSON.stampsText(entity.stamps)
        feed += stamps.hasPrefix("{") ? stamps : "\"\(stamps)\""
        feed += entity.deleted.map { ",\"\($0.text)\"]" } ?? ",null]"
      case .new(let change):
        feed += "," + SyncJSON.text(change.fields) + ",\"\(change.stamp.text)\",null]"
      }
      if let day = item.day { days.add(item.id, day) }
    }
    try db.cachedStatement(
      sql: """
        INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
        SELECT ?1, 'entry', r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3, ?2 + r.key
        FROM json_each(?3) r WHERE true
        ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
          stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position
        """
    ).execute(arguments: [userText, first, feed + "]"])
    try days.write(db, user: user)
  }
}

extension Database {
  /// Whether the feed holds any entry of `habit` (an id's part before its slash).
  fileprivate func holdsSyncEntries(of habit: Substring, user: String) throws -> Bool {
    try Bool.fetchOne(
      cachedStatement(
        sql: """
          SELECT EXISTS (SELECT 1 FROM sync_entities
            WHERE user_id = ? AND kind = 'entry' AND entity_id > ? AND entity_id < ?)
          """),
      arguments: [user, habit + "/", habit + "0"]) ?? false
  }
}
