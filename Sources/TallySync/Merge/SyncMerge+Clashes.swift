import Foundation
import TallyCore
import TallyStore

/// Two devices that gave two habits one name, or added one TMDB show twice, offline: both
/// survive (SPEC 11), and the one whose value was set later gives way, as a change of this
/// merge that every replica then receives.
extension SyncMerge {
  /// The name `habit` keeps; renames whichever of it and a same-named habit was named later.
  mutating func resolveNameClash(_ habit: Habit, _ key: SyncKey, _ state: SyncEntity) throws -> String {
    let nameKey = NameKey.comparisonKey(habit.name)
    // The store's name index finds a clash; only then are the other names read.
    guard let other = try storage.habit(nameKey: nameKey, other: habit.id) else { return habit.name }
    // The other habit's own changes in this batch come first: they may free the name.
    if try applyWaiting(other.id) { return try resolveNameClash(habit, key, state) }
    let otherKey = SyncKey(kind: .habit, id: other.id.storeText)
    let otherStamp = try storage.entity(otherKey)?.stamps["name"]
    if let otherStamp, let mine = state.stamps["name"], otherStamp > mine {
      // Until it is written, `habit` still holds its old name here: that one is taken too.
      let free = try freeName(habit.name, besides: other.id)
      try storage.renameHabit(other.id, to: free)
      try recordOwn(otherKey, ["name": .string(free)])
      report.renamed.append(SyncRename(kind: .habit, id: otherKey.id, from: other.name, to: free))
      return habit.name
    }
    let free = try freeName(habit.name, besides: habit.id)
    try recordOwn(key, ["name": .string(free)])
    report.renamed.append(SyncRename(kind: .habit, id: key.id, from: habit.name, to: free))
    return free
  }

  /// `name` with the first suffix no habit but `habit` holds.
  private func freeName(_ name: String, besides habit: UUID) throws -> String {
    let taken = Set(try storage.habitNames(other: habit).map(NameKey.comparisonKey))
    return SyncMergeRules.freeName(name, taken: taken.union([NameKey.comparisonKey(name)]))
  }

  /// A user has each TMDB show once: of two shows given one TMDB id, the later loses the link.
  mutating func resolveTMDBClash(_ show: Show, _ key: SyncKey, _ state: SyncEntity) throws -> Show {
    guard let tmdbID = show.tmdbID, let other = try storage.show(tmdbID: tmdbID, other: show.id) else { return show }
    let otherKey = SyncKey(kind: .show, id: other.storeText)
    let otherStamp = try storage.entity(otherKey)?.stamps["tmdbID"]
    if let otherStamp, let mine = state.stamps["tmdbID"], otherStamp > mine {
      try storage.unlinkShow(other)
      try recordOwn(otherKey, ["tmdbID": .null])
      report.renamed.append(SyncRename(kind: .show, id: otherKey.id, from: "TMDB \(tmdbID)", to: "no TMDB link"))
      return show
    }
    try recordOwn(key, ["tmdbID": .null])
    report.renamed.append(SyncRename(kind: .show, id: key.id, from: "TMDB \(tmdbID)", to: "no TMDB link"))
    return try Show(id: show.id, title: show.title, status: show.status, providers: show.providers)
  }
}
