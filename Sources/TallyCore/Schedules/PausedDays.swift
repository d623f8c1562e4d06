import Foundation

/// The days one habit is paused: its own pauses and the user's pauses of every habit, merged
/// into sorted ranges that neither touch nor overlap (pauses from two devices may overlap).
public struct PausedDays: Hashable, Sendable {
  public let ranges: [ClosedRange<Day>]

  public static let none = PausedDays(ranges: [])

  public init(_ days: some Sequence<ClosedRange<Day>>) {
    var merged: [ClosedRange<Day>] = []
    for range in days.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound.ordinal <= last.upperBound.ordinal + 1 {
        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    ranges = merged
  }

  /// The pauses in `pauses` that cover `habit`.
  public init(_ pauses: some Sequence<Pause>, habit: UUID) {
    self.init(pauses.filter { $0.covers(habit: habit) }.map(\.days))
  }

  private init(ranges: [ClosedRange<Day>]) { self.ranges = ranges }

  public var isEmpty: Bool { ranges.isEmpty }

  public func contains(_ day: Day) -> Bool {
    guard !ranges.isEmpty else { return false }
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < day { low = middle + 1 } else { high = middle }
    }
    return low < ranges.count && ranges[low].contains(day)
  }

  /// How many days of `period` are paused.
  public func count(in period: ClosedRange<Day>) -> Int {
    ranges.reduce(0) { total, range in
      guard range.overlaps(period) else { return total }
      return total + max(range.lowerBound, period.lowerBound).days(to: min(range.upperBound, period.upperBound)) + 1
    }
  }
}
