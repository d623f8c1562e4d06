import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// Two devices that gave two habits one name, or added one TMDB show twice, offline: both
/// survive (SPEC 11), and the one whose value was set later gives way, as a change of this
/// merge that every replica then receives.
extension SyncApplier {
  /// The name `habit` keeps; renames whichever of it and a same-named habit was named later.
  mutating func resolveNameClash(_ habit: Habit, _ key: SyncKey, _ state: SyncEntity) throws -> String {
    let nameKey = NameKey.comparisonKey(habit.name)
    let mine = HabitRecord.filter(HabitRecord.Columns.userID == user.storeText)
      .filter(HabitRecord.Columns.id != habit.id.storeText)
    // The unique name index finds a clash; only then are the other names read.
    guard let other = try mine.filter(HabitRecord.Columns.nameKey == nameKey).fetchOne(db) else { return habit.name }
    let taken = Set(try mine.fetchAll(db).map { NameKey.comparisonKey($0.name) }).union([nameKey])
    let free = SyncMergeRules.freeName(habit.name, taken: taken)
    let otherKey = SyncKey(kind: .habit, id: other.id)
    let otherStamp = try db.syncEntity(otherKey, user: user)?.stamps["name"]
    if let otherStamp, let mine = state.stamps["name"], otherStamp > mine {
      var renamed = other
      renamed.name = free
      renamed.nameKey = NameKey.comparisonKey(free)
      try renamed.update(db)
      try renamer().record(otherKey, ["name": .string(free)])
      noteRename(SyncRename(kind: .habit, id: other.id, from: other.name, to: free))
      return habit.name
    }
    try renamer().record(key, ["name": .string(free)])
    noteRename(SyncRename(kind: .habit, id: key.id, from: habit.name, to: free))
    return free
  }

  /// A user has each TMDB show once: of two shows given one TMDB id, the later loses the link.
  mutating func resolveTMDBClash(_ show: Show, _ key: SyncKey, _ state: SyncEntity) throws -> Show {
    guard let tmdbID = show.tmdbID,
      let other = try ShowRecord.filter(ShowRecord.Columns.userID == user.storeText)
        .filter(ShowRecord.Columns.tmdbID == tmdbID).filter(ShowRecord.Columns.id != show.id.storeText)
        .fetchOne(db)
    else { return show }
    let otherKey = SyncKey(kind: .show, id: other.id)
    let otherStamp = try db.syncEntity(otherKey, user: user)?.stamps["tmdbID"]
    if let otherStamp, let mine = state.stamps["tmdbID"], otherStamp > mine {
      var unlinked = other
      unlinked.tmdbID = nil
      try unlinked.update(db)
      try renamer().record(otherKey, ["tmdbID": .null])
      noteRename(SyncRename(kind: .show, id: other.id, from: "TMDB \(tmdbID)", to: "no TMDB link"))
      return show
    }
    try renamer().record(key, ["tmdbID": .null])
    noteRename(SyncRename(kind: .show, id: key.id, from: "TMDB \(tmdbID)", to: "no TMDB link"))
    return try Show(id: show.id, title: show.title, status: show.status, providers: show.providers)
  }
}
