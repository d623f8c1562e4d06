/// A habit's entries laid out densely by day, so statistics and grids read a day's status with
/// one array index instead of a dictionary lookup or a calendar call. A noted day (not done,
/// only a note) is left out: every rule counts it as a day with no entry. It also holds the
/// days the habit is paused, so every rule that reads a history honours pauses.
public struct HabitHistory: Sendable, Equatable {
  /// The earliest day done or skipped; `nil` when there are none.
  public let firstDay: Day?
  /// The earliest completed day; `nil` when nothing was ever completed.
  public let firstCompletedDay: Day?
  private let statuses: [Status]
  /// Thousandths by day, parallel to `statuses`; empty when no entry has an amount.
  private let amounts: [Int64]
  /// The habit's pauses and the user's pauses of every habit (``pausing(_:)``).
  public private(set) var paused = PausedDays.none

  enum Status: UInt8 { case none, done, skipped }

  public init(_ entries: [HabitEntry]) {
    // Noted days are skipped in place: a list page builds a history per habit, so no copy.
    guard let firstEntry = entries.first(where: { $0.status != .noted }) else {
      self.init(firstDay: nil, firstCompletedDay: nil, statuses: [], amounts: [])
      return
    }
    var first = firstEntry.day.ordinal
    var last = first
    var firstCompleted = Int.max
    // Fields read by index, not whole entries: copying an entry retains and releases its note.
    for index in entries.indices where entries[index].status != .noted {
      let ordinal = entries[index].day.ordinal
      first = Swift.min(first, ordinal)
      last = Swift.max(last, ordinal)
      if entries[index].status == .done { firstCompleted = Swift.min(firstCompleted, ordinal) }
    }
    var statuses = [Status](repeating: .none, count: last - first + 1)
    var amounts: [Int64] = []
    for index in entries.indices where entries[index].status != .noted {
      let offset = entries[index].day.ordinal - first
      statuses[offset] = entries[index].status == .done ? .done : .skipped
      if let amount = entries[index].amount {
        if amounts.isEmpty { amounts = [Int64](repeating: 0, count: statuses.count) }
        amounts[offset] = amount.thousandths
      }
    }
    self.init(
      firstDay: Day(ordinal: first),
      firstCompletedDay: firstCompleted == .max ? nil : Day(ordinal: firstCompleted),
      statuses: statuses, amounts: amounts)
  }

  /// A yes/no habit's history from each day's status, in order from `first`: done, skipped,
  /// or `nil` for neither (a stored form that keeps no rows, such as SQLite's `habit_months`).
  public init(startingOn first: Day, statuses: [EntryStatus?]) {
    let kept = statuses.map { status -> Status in
      switch status {
      case .done?: .done
      case .skipped?: .skipped
      case .noted?, nil: .none
      }
    }
    guard let start = kept.firstIndex(where: { $0 != .none }), let end = kept.lastIndex(where: { $0 != .none }) else {
      self.init(firstDay: nil, firstCompletedDay: nil, statuses: [], amounts: [])
      return
    }
    let completed = kept.firstIndex(of: .done)
    self.init(
      firstDay: first.adding(days: start), firstCompletedDay: completed.map { first.adding(days: $0) },
      statuses: Array(kept[start...end]), amounts: [])
  }

  private init(firstDay: Day?, firstCompletedDay: Day?, statuses: [Status], amounts: [Int64]) {
    self.firstDay = firstDay
    self.firstCompletedDay = firstCompletedDay
    self.statuses = statuses
    self.amounts = amounts
  }

  /// The amount entered on `day` (0 when none was).
  public func amount(on day: Day) -> Amount {
    Amount(thousandths: thousandths(on: day))
  }

  @inline(__always)
  func thousandths(on day: Day) -> Int64 {
    guard let firstDay, !amounts.isEmpty else { return 0 }
    let index = day.ordinal - firstDay.ordinal
    return index >= 0 && index < amounts.count ? amounts[index] : 0
  }

  public func status(on day: Day) -> EntryStatus? {
    switch rawStatus(on: day) {
    case .none: nil
    case .done: .done
    case .skipped: .skipped
    }
  }

  public func isCompleted(on day: Day) -> Bool {
    rawStatus(on: day) == .done
  }

  @inline(__always)
  func rawStatus(on day: Day) -> Status {
    guard let firstDay else { return .none }
    let index = day.ordinal - firstDay.ordinal
    return index >= 0 && index < statuses.count ? statuses[index] : .none
  }

  /// This history with the days `paused` neutral (SPEC 2), replacing any it held.
  public func pausing(_ paused: PausedDays) -> HabitHistory {
    var copy = self
    copy.paused = paused
    return copy
  }

  @inline(__always)
  public func isPaused(on day: Day) -> Bool {
    !paused.isEmpty && paused.contains(day)
  }

  /// The day a habit's tracked period starts (SPEC 3's S): the earlier of the day it was
  /// created and its first completed day, since back-filled days extend the period.
  public func trackingStart(createdDay: Day) -> Day {
    guard let firstCompletedDay, firstCompletedDay < createdDay else { return createdDay }
    return firstCompletedDay
  }
}
