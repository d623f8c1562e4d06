/// The neutral days of one habit as the statistics' day-by-day loops ask about them. The loops
/// are generic over it so they compile twice: for a habit of every day with no pause the
/// questions fold away and the loop is as fast as before schedules existed.
protocol RestingDays {
  /// Outside the habit's weekdays, or paused.
  func isNeutral(_ day: Day) -> Bool
  func isPaused(_ day: Day) -> Bool
  func pausedCount(in period: ClosedRange<Day>) -> Int
}

/// A habit that cannot rest: every question answers no.
struct NeverResting: RestingDays {
  @inline(__always) func isNeutral(_ day: Day) -> Bool { false }
  @inline(__always) func isPaused(_ day: Day) -> Bool { false }
  @inline(__always) func pausedCount(in period: ClosedRange<Day>) -> Int { 0 }
}

/// A habit with a weekday schedule or pauses.
struct ScheduledRest: RestingDays {
  let frequency: Frequency
  let paused: PausedDays

  func isNeutral(_ day: Day) -> Bool { !frequency.isScheduled(on: day) || paused.contains(day) }
  func isPaused(_ day: Day) -> Bool { paused.contains(day) }
  func pausedCount(in period: ClosedRange<Day>) -> Int { paused.count(in: period) }
}
