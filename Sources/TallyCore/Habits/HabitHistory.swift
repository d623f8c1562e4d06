/// A habit's entries laid out densely by day, so statistics and grids read a day's status with
/// one array index instead of a dictionary lookup or a calendar call.
public struct HabitHistory: Sendable, Equatable {
  /// The earliest day with an entry; `nil` when there are none.
  public let firstDay: Day?
  /// The earliest completed day; `nil` when nothing was ever completed.
  public let firstCompletedDay: Day?
  private let statuses: [Status]

  enum Status: UInt8 { case none, done, skipped }

  public init(_ entries: some Collection<HabitEntry>) {
    var first: Day?
    var last: Day?
    var firstCompleted: Day?
    for entry in entries {
      if first.map({ entry.day < $0 }) ?? true { first = entry.day }
      if last.map({ entry.day > $0 }) ?? true { last = entry.day }
      if entry.status == .done, firstCompleted.map({ entry.day < $0 }) ?? true {
        firstCompleted = entry.day
      }
    }
    var statuses: [Status] = []
    if let first, let last {
      statuses = Array(repeating: .none, count: first.days(to: last) + 1)
      for entry in entries {
        statuses[first.days(to: entry.day)] = entry.status == .done ? .done : .skipped
      }
    }
    self.firstDay = first
    self.firstCompletedDay = firstCompleted
    self.statuses = statuses
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

  /// The day a habit's tracked period starts (SPEC 3's S): the earlier of the day it was
  /// created and its first completed day, since back-filled days extend the period.
  public func trackingStart(createdDay: Day) -> Day {
    guard let firstCompletedDay, firstCompletedDay < createdDay else { return createdDay }
    return firstCompletedDay
  }
}
