import Foundation
import Synchronization
import TallyCore
import TallyStore
import TallySync

/// Each active user's habit entries, kept in memory and brought up to date from the user's
/// change feed, so the page computed after a write reads the days that changed, not every
/// entry of every habit (docs/server.md "Pages after a write").
///
/// Every write a store makes enters the feed in its transaction, whichever process or
/// instance makes it; so what is kept at feed position P, plus the changes after P, is what
/// the store holds. Days are read *after* the changes that name them, so a kept day is never
/// older than its position says; a write landing in between is read again next time.
package final class HabitHistories: Sendable {
  /// One habit's days, and what is computed from them once per version of those days.
  package final class Habit: Sendable {
    package let entries: [HabitEntry]
    package let history: HabitHistory
    private let statistics = Mutex<(key: StatisticsKey, value: HabitStatistics)?>(nil)

    init(_ entries: [HabitEntry], paused: PausedDays = .none) {
      self.entries = entries
      history = HabitHistory(entries).pausing(paused)
    }

    /// The entries of the days in `range`, found by halving: a year of a ten-year habit.
    package func entries(in range: ClosedRange<Day>) -> [HabitEntry] {
      Array(entries[firstIndex { $0.day >= range.lowerBound }..<firstIndex { $0.day > range.upperBound }])
    }

    /// The first index whose entry satisfies `isPast`, which holds from some day on.
    private func firstIndex(_ isPast: (HabitEntry) -> Bool) -> Int {
      var low = 0
      var high = entries.count
      while low < high {
        let middle = (low + high) / 2
        if isPast(entries[middle]) { high = middle } else { low = middle + 1 }
      }
      return low
    }

    /// The habit's statistics as of `today`, computed again only when the habit, today or
    /// the first weekday differ from the last time asked.
    package func statistics(of habit: TallyCore.Habit, today: Day, firstWeekday: Weekday) -> HabitStatistics {
      let key = StatisticsKey(habit: habit, today: today, firstWeekday: firstWeekday)
      if let kept = statistics.withLock({ $0 }), kept.key == key { return kept.value }
      let value = HabitStatistics(habit: habit, history: history, today: today, firstWeekday: firstWeekday)
      statistics.withLock { $0 = (key, value) }
      return value
    }
  }

  struct StatisticsKey: Hashable {
    var habit: TallyCore.Habit
    var today: Day
    var firstWeekday: Weekday
  }

  private struct Kept {
    var position: Int64
    var read: Read
    var entryCount: Int
    var used: UInt64
  }

  private struct State {
    var users: [UUID: Kept] = [:]
    var entryCount = 0
    var clock: UInt64 = 0
  }

  private static let noEntries = Habit([])

  private let state = Mutex(State())
  /// Entries kept across users; past it the least recently read users are dropped.
  package let capacity: Int
  /// More changes than this since a user's last read: reading everything again is cheaper.
  package let changesRead: Int

  package init(capacity: Int = 400_000, changesRead: Int = 512) {
    self.capacity = capacity
    self.changesRead = changesRead
  }

  /// The user's habits and their days as the store holds them now; a habit with no entries
  /// may be absent from the days (``Read/days(of:)`` reads it as none). `revision`: the
  /// user's, when the caller has just read it (a kept page does, before its data), so it is
  /// not read twice.
  package func read(for user: UUID, from store: any SyncingStore, at revision: StoreRevision? = nil) async throws -> Read {
    let kept = state.withLock { state in state.users[user] }
    if let kept {
      let current: StoreRevision
      if let revision { current = revision } else { current = try await store.revision(for: user) }
      if current.head == kept.position {
        touch(user)
        return kept.read
      }
      let page = try await store.syncChanges(for: user, after: kept.position, limit: changesRead)
      if page.changes.isEmpty {
        touch(user)
        return kept.read
      }
      if !page.more {
        let read = try await Self.apply(page.changes, to: kept.read, user: user, store: store)
        keep(read, at: page.position, for: user)
        return read
      }
    }
    let position = try await store.syncHead(for: user)
    let list = try await store.habits(for: user, includingArchived: true)
    let entries = try await store.entries(in: Day.allTime, for: user)
    let read = Read(list: list, entries: entries, pauses: try await store.pauses(for: user))
    keep(read, at: position, for: user)
    return read
  }

  /// What ``read(for:from:)`` answers.
  package struct Read: Sendable {
    /// Every habit, archived ones too, in the store's order.
    let list: [TallyCore.Habit]
    let days: [UUID: Habit]
    /// The user's pauses, which every habit's history holds its share of.
    package let pauses: [Pause]

    init(list: [TallyCore.Habit], days: [UUID: Habit], pauses: [Pause]) {
      (self.list, self.days, self.pauses) = (list, days, pauses)
    }

    /// Each habit's days with its pauses; a paused habit with no days is kept too.
    init(list: [TallyCore.Habit], entries: [UUID: [HabitEntry]], pauses: [Pause]) {
      var days: [UUID: Habit] = [:]
      for habit in list {
        let paused = PausedDays(pauses, habit: habit.id)
        guard let kept = entries[habit.id], !kept.isEmpty else {
          if !paused.isEmpty { days[habit.id] = Habit([], paused: paused) }
          continue
        }
        days[habit.id] = Habit(kept, paused: paused)
      }
      self.init(list: list, days: days, pauses: pauses)
    }

    /// The habits as ``Store/habits(for:includingArchived:)`` lists them.
    package func habits(includingArchived: Bool) -> [TallyCore.Habit] {
      includingArchived ? list : list.filter { !$0.archived }
    }

    package func days(of habit: UUID) -> Habit { days[habit] ?? HabitHistories.noEntries }
  }

  /// Reads again the days the changes name (a habit's change: all its days, since a change of
  /// kind converts them and a deletion removes them), and the habits when one of them changed.
  private static func apply(
    _ changes: [SyncChange], to kept: Read, user: UUID, store: any SyncingStore
  ) async throws -> Read {
    // By habit, the days to read again; nil reads them all.
    var reads: [UUID: ClosedRange<Day>?] = [:]
    var pausesChanged = false
    for change in changes {
      switch try? SyncID(change.key) {
      case .pause?:
        pausesChanged = true
      case .habit(let habit)?:
        reads[habit] = .some(nil)
      case .entry(let habit, let day)?:
        guard let known = reads[habit] else {
          reads[habit] = day...day
          continue
        }
        if let range = known { reads[habit] = min(range.lowerBound, day)...max(range.upperBound, day) }
      default:
        break
      }
    }
    // A habit's change may be any of its fields, or its deletion: list them again.
    let list = try await reads.values.contains(nil) ? store.habits(for: user, includingArchived: true) : kept.list
    // A pause changes the histories of the habits it covers, all of them for a vacation.
    guard !pausesChanged else {
      return Read(
        list: list, entries: try await store.entries(in: Day.allTime, for: user), pauses: try await store.pauses(for: user))
    }
    var days = kept.days
    for (habit, range) in reads {
      let read: [HabitEntry]
      do {
        read = try await store.entries(of: habit, in: range, for: user)
      } catch StoreError.notFound {
        days[habit] = nil
        continue
      }
      let old = days[habit]?.entries ?? []
      let entries = range.map { range in
        Array(old.prefix(while: { $0.day < range.lowerBound }) + read + old.drop(while: { $0.day <= range.upperBound }))
      } ?? read
      let paused = PausedDays(kept.pauses, habit: habit)
      days[habit] = entries.isEmpty && paused.isEmpty ? nil : Habit(entries, paused: paused)
    }
    return Read(list: list, days: days, pauses: kept.pauses)
  }

  private func touch(_ user: UUID) {
    state.withLock { state in
      state.clock += 1
      state.users[user]?.used = state.clock
    }
  }

  private func keep(_ read: Read, at position: Int64, for user: UUID) {
    let count = read.days.values.reduce(0) { $0 + $1.entries.count }
    state.withLock { state in
      // Two reads racing: the one that saw more of the feed stays.
      if let kept = state.users[user], kept.position > position { return }
      state.clock += 1
      state.entryCount += count - (state.users[user]?.entryCount ?? 0)
      state.users[user] = Kept(position: position, read: read, entryCount: count, used: state.clock)
      while state.entryCount > capacity, let oldest = state.users.min(by: { $0.value.used < $1.value.used }) {
        state.entryCount -= oldest.value.entryCount
        state.users[oldest.key] = nil
      }
    }
  }
}
