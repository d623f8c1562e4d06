import Foundation
import TallyCore
import TallyStore

/// One user's change feed, clock and outbox inside one write transaction: what recording a
/// change needs. Each store implements it with its SQL only; every decision about what to
/// write is ``SyncFeedRecorder``'s or ``SyncMerge``'s. Synchronous, so SQLite implements it
/// on GRDB's writer queue at no cost; PostgreSQL waits on a thread of its own (docs/sync.md).
public protocol SyncFeedStorage {
  /// The latest stamp this database has seen (PostgreSQL locks the user's head to read it).
  func latestStamp() throws -> HybridStamp?
  func saveLatestStamp(_ stamp: HybridStamp) throws
  /// This database's device id: the device of every stamp it makes.
  func device() throws -> UUID
  /// Whether the user's data is a replica: its changes then queue to be pushed.
  func isReplica() throws -> Bool

  /// What the feed holds of `key`.
  func entity(_ key: SyncKey) throws -> SyncEntity?
  /// Writes `entity` with a new feed position, so pulls after it see it.
  func save(_ entity: SyncEntity, _ key: SyncKey) throws
  /// Forgets the entities of `parent`'s children of `kind`: its tombstone stands for them.
  func removeChildren(of parent: SyncKey, kind: SyncKind) throws
  /// Puts `change` in the outbox.
  func enqueue(_ change: SyncChange) throws
}

/// A merged batch's entries while the batch is merged, read from the feed in one go and
/// written in one go: a first pull is nearly all entries.
public protocol SyncEntryBatchState {
  /// The entry `id` as this batch left it, or as the feed held it.
  func entity(_ id: String) -> SyncEntity?
  /// Keeps `entity`, merged, and the day it makes.
  mutating func save(_ entity: SyncEntity, id: String, day: HabitEntryValue)
  /// Keeps `change` as a whole entry: only for an id ``entity(_:)`` has just found nothing of.
  mutating func addNew(_ change: SyncChange, day: HabitEntryValue)
}

/// An entry that waited in the feed for its habit, found when the habit arrives.
public struct SyncWaitingEntry: Sendable {
  public var id: String
  public var day: HabitEntryValue
  /// The entry's one stamp (SPEC 11 merges it whole) and its place in the feed.
  public var stamp: HybridStamp
  public var position: Int64
}

/// The rest of what ``SyncMerge`` reads and writes: the batch's entries, the tables the rest
/// of Tally reads, and the lookups the clash rules need.
public protocol SyncMergeStorage: SyncFeedStorage {
  associatedtype EntryBatch: SyncEntryBatchState

  // MARK: Entries

  /// Reads what the feed holds of the entries `ids` names.
  func readEntries(_ ids: some Sequence<String>) throws -> EntryBatch
  /// Writes the entries `batch` changed, with new feed positions in the order they changed,
  /// and their days.
  func write(_ batch: EntryBatch) throws
  /// Writes `run` whole when the store can do so without merging it entry by entry (a page
  /// of a first pull): what it applied and left unchanged, or `nil` to merge one by one.
  func writeWhole(_ run: SyncEntryRun) throws -> (applied: Int, unchanged: Int)?
  /// The children of `parent` kept while it was not complete, with their feed positions.
  func children(of parent: SyncKey, kind: SyncKind) throws -> [(key: SyncKey, entity: SyncEntity, position: Int64)]
  /// Gives a habit that has just arrived the days that waited for it.
  func placeWaiting(_ entries: [SyncWaitingEntry], of habit: UUID) throws

  // MARK: Ids and clashes

  /// Whether another account holds this habit, show or chat id.
  func isHeldElsewhere(_ id: SyncID) throws -> Bool
  /// Another of the user's habits whose name has `nameKey`.
  func habit(nameKey: String, other id: UUID) throws -> (id: UUID, name: String)?
  /// The names of the user's other habits.
  func habitNames(other id: UUID) throws -> [String]
  func renameHabit(_ id: UUID, to name: String) throws
  /// Another of the user's shows linked to `tmdbID`.
  func show(tmdbID: Int, other id: UUID) throws -> UUID?
  func unlinkShow(_ id: UUID) throws

  // MARK: Tables

  func saveSettings(_ settings: UserSettings) throws
  /// Whether any account has the habit (or show): a new one takes what waited for it.
  func habitExists(_ id: UUID) throws -> Bool
  func writeHabit(_ habit: Habit, inserting: Bool) throws
  /// Deletes the user's habit; its days and deliveries go with it.
  func deleteHabit(_ id: UUID) throws
  func journalText(_ day: Day) throws -> String?
  func saveJournal(_ entry: JournalEntry) throws
  func deleteJournal(_ day: Day) throws
  func keepJournalRevision(_ day: Day, text: String, stamp: HybridStamp, replacedBy: HybridStamp) throws
  func saveChat(_ message: ChatMessage) throws
  func deleteChat(_ id: UUID) throws
  func showExists(_ id: UUID) throws -> Bool
  /// Whether the user has the show: only then are its episodes rows.
  func userHasShow(_ id: UUID) throws -> Bool
  /// Saves the show and its providers.
  func saveShow(_ show: Show) throws
  /// Deletes the user's show; its providers and episodes go with it.
  func deleteShow(_ id: UUID) throws
  func saveEpisode(_ episode: Episode) throws
  func savePrice(_ price: Price) throws
  func deletePrice(country: String, providerID: Int) throws
  /// Whether the user has this habit: a pause of a habit the user does not have is no row.
  func userHasHabit(_ id: UUID) throws -> Bool
  /// Saves the pause as merged, even where it overlaps another (two devices' pauses merge as
  /// their union); deleting it when it is of a habit the user no longer has.
  func savePause(_ pause: Pause) throws
  func deletePause(_ id: UUID) throws
}
