import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// Two devices that gave two habits one name, or added one TMDB show twice, offline: both
/// survive (SPEC 11), and the one whose value was set later gives way, as a change of this
/// merge that every replica then receives.
extension PostgresSyncApplier {
  /// The name `habit` keeps; renames whichever of it and a same-named habit was named later.
  mutating func resolveNameClash(_ habit: Habit, _ key: SyncKey, _ state: SyncEntity) async throws -> String {
    let others = try await connection.rows("SELECT * FROM habits WHERE user_id = \(user) AND id <> \(habit.id)")
      .map(PostgresRows.habit)
    let nameKey = NameKey.comparisonKey(habit.name)
    guard let other = others.first(where: { NameKey.comparisonKey($0.name) == nameKey }) else { return habit.name }
    let taken = Set(others.map { NameKey.comparisonKey($0.name) }).union([nameKey])
    let free = SyncMergeRules.freeName(habit.name, taken: taken)
    let otherKey = SyncKey(kind: .habit, id: other.id.storeText)
    let otherStamp = try await connection.syncEntity(otherKey, user: user)?.stamps["name"]
    if let otherStamp, let mine = state.stamps["name"], otherStamp > mine {
      try await connection.run(
        "UPDATE habits SET name = \(free), name_key = \(NameKey.comparisonKey(free)) WHERE id = \(other.id)")
      try await renamer().record(otherKey, ["name": .string(free)])
      noteRename(SyncRename(kind: .habit, id: other.id.storeText, from: other.name, to: free))
      return habit.name
    }
    try await renamer().record(key, ["name": .string(free)])
    noteRename(SyncRename(kind: .habit, id: key.id, from: habit.name, to: free))
    return free
  }

  /// A user has each TMDB show once: of two shows given one TMDB id, the later loses the link.
  mutating func resolveTMDBClash(_ show: Show, _ key: SyncKey, _ state: SyncEntity) async throws -> Show {
    guard let tmdbID = show.tmdbID,
      let other = try await connection.values(
        "SELECT id FROM shows WHERE user_id = \(user) AND tmdb_id = \(tmdbID) AND id <> \(show.id)", as: UUID.self
      ).first
    else { return show }
    let otherKey = SyncKey(kind: .show, id: other.storeText)
    let otherStamp = try await connection.syncEntity(otherKey, user: user)?.stamps["tmdbID"]
    if let otherStamp, let mine = state.stamps["tmdbID"], otherStamp > mine {
      try await connection.run("UPDATE shows SET tmdb_id = NULL WHERE id = \(other)")
      try await renamer().record(otherKey, ["tmdbID": .null])
      noteRename(SyncRename(kind: .show, id: other.storeText, from: "TMDB \(tmdbID)", to: "no TMDB link"))
      return show
    }
    try await renamer().record(key, ["tmdbID": .null])
    noteRename(SyncRename(kind: .show, id: key.id, from: "TMDB \(tmdbID)", to: "no TMDB link"))
    return try Show(id: show.id, title: show.title, status: show.status, providers: show.providers)
  }
}
