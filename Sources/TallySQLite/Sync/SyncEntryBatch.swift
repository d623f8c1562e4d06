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
  private var changed: [(id: String, state: State)] = []
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

  /// Reads the feed's state of the entries `ids` names.
  init(_ db: Database, user: UUID, ids: some Sequence<String>) throws {
    var list = "["
    for id in ids {
      if list.utf8.count > 1 { list += "," }
      SyncJSONText.append(id, to: &list)
    }
    let rows = try Row.fetchCursor(
      db.cachedStatement(
        sql: """
          SELECT entity_id, fields, stamps, deleted FROM sync_entities
          WHERE user_id = ? AND kind = 'entry' AND entity_id IN (SELECT value FROM json_each(?))
          """),
      arguments: [user.storeText, list + "]"])
    while let row = try rows.next() {
      let id: String = row["entity_id"]
      stored[id] = try Database.entity(row)
    }
  }

  func entity(_ id: String) -> SyncEntity? {
    if let index = place[id] { return changed[index].state.entity }
    return stored[id]
  }

  mutating func save(_ entity: SyncEntity, id: String) {
    if let index = place[id] {
      changed[index].state = .merged(entity)
    } else {
      add(.merged(entity), id: id)
    }
  }

  /// Keeps `change` as a whole entry: only for one `entity(_:)` has just found nothing of.
  mutating func addNew(_ change: SyncChange) {
    add(.new(change), id: change.id)
  }

  private mutating func add(_ state: State, id: String) {
    place[id] = changed.count
    changed.append((id, state))
  }

  /// Writes every changed entry with a new feed position, in the order they changed.
  func write(_ db: Database, user: UUID) throws {
    guard !changed.isEmpty else { return }
    let userText = user.storeText
    var position = try db.takeSyncPositions(userText, count: changed.count)
    for (id, state) in changed {
      let key = SyncKey(kind: .entry, id: id)
      switch state {
      case .merged(let entity):
        try db.writeSyncEntity(entity, key, user: userText, position: position)
      case .new(let change):
        try db.writeSyncRow(
          key, fields: SyncJSON.text(change.fields), stamps: change.stamp.text, deleted: nil, user: userText,
          position: position)
      }
      position += 1
    }
  }
}
