import Foundation
import GRDB
import TallyStore
import TallySync

/// The entries of one merged batch, in memory until they are written to the feed together.
/// A first pull is 150,000 entries: reading what the feed holds of a page in one query, and
/// taking feed positions for the page at once, spares a lookup and an update of the user's
/// head per entry.
struct SyncEntryBatch {
  private var held: [String: SyncEntity] = [:]
  /// Entries merged into something new, in the order they first were.
  private var changed: [String] = []
  private var isChanged: Set<String> = []

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
      held[id] = try Database.entity(row)
    }
  }

  func entity(_ id: String) -> SyncEntity? { held[id] }

  mutating func save(_ entity: SyncEntity, id: String) {
    held[id] = entity
    if isChanged.insert(id).inserted { changed.append(id) }
  }

  /// Writes every changed entry with a new feed position, in the order they changed.
  func write(_ db: Database, user: UUID) throws {
    guard !changed.isEmpty else { return }
    let userText = user.storeText
    var position = try db.takeSyncPositions(userText, count: changed.count)
    for id in changed {
      try db.writeSyncEntity(held[id]!, SyncKey(kind: .entry, id: id), user: userText, position: position)
      position += 1
    }
  }
}
