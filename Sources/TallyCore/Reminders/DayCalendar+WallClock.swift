import Foundation

extension DayCalendar {
  /// The instant the wall clock in `timeZone` reads `time` on `date`.
  ///
  /// Reminders are set in wall-clock time, so DST changes must not move them or drop them:
  /// - a time inside a spring-forward gap (New York 2026-03-08 02:30) has no instant of its own
  ///   and maps to the first instant after the gap, the transition itself (03:00 EDT);
  /// - a time inside a fall-back overlap (New York 2026-11-01 01:30) maps to its first
  ///   occurrence, so it fires once;
  /// - a date the zone skipped entirely (Pacific/Apia 2011-12-30) is one long gap: each of its
  ///   times maps to the first instant after it, 2011-12-31 00:00 local.
  ///
  /// The offsets are read only a day either side of the wall time, so two transitions less
  /// than a day apart (no zone has had any since 2011) could be mis-resolved.
  public func instant(of time: WallTime, on date: Day) -> Date {
    let wall = date.ordinal * Self.secondsPerDay + time.minutesSinceMidnight * 60
    let offsetBefore = utcOffset(at: wall - Self.secondsPerDay)
    let offsetAfter = utcOffset(at: wall + Self.secondsPerDay)
    let readings = [wall - offsetBefore, wall - offsetAfter].filter { utcOffset(at: $0) == wall - $0 }
    if let first = readings.min() {
      return Date(timeIntervalSince1970: TimeInterval(first))
    }
    return Date(timeIntervalSince1970: TimeInterval(
      firstInstantLeavingOffset(offsetBefore, after: wall - offsetAfter, through: wall - offsetBefore)))
  }

  /// Binary search inside a gap: the offset is `offset` at `start` and the later one at `end`,
  /// so the change happens at one instant in between, the first the wall clock reads again.
  private func firstInstantLeavingOffset(_ offset: Int, after start: Int, through end: Int) -> Int {
    var low = start
    var high = end
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if utcOffset(at: middle) == offset {
        low = middle
      } else {
        high = middle
      }
    }
    return high
  }

  private func utcOffset(at secondsSince1970: Int) -> Int {
    timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(secondsSince1970)))
  }

  private static let secondsPerDay = 86_400
}
