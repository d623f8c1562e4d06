/// SPEC 2's neutral days: a day outside a weekday schedule or inside a pause counts like a
/// skipped day for every statistic, unless it is completed, and is never due.
extension Habit {
  /// Whether any day can be neutral: false for a habit of every day with no pause, so the
  /// statistics' loops skip asking day by day.
  @inline(__always)
  func mayRest(_ history: HabitHistory) -> Bool {
    if case .weekdays = frequency { return true }
    return !history.paused.isEmpty
  }

  /// Whether the schedule asks for `day` and no pause covers it.
  @inline(__always)
  public func isScheduled(on day: Day, history: HabitHistory) -> Bool {
    frequency.isScheduled(on: day) && !history.isPaused(on: day)
  }
}

extension Measure {
  /// The goal of a period of `length` days of which `unpaused` are not paused: an *at least*
  /// target shrinks in proportion (rounded up to a thousandth), a limit (*at most*) stays as it
  /// is, and a wholly paused period keeps the whole target, which only a completed day can meet.
  public func target(unpaused: Int, of length: Int) -> Measure {
    guard direction == .atLeast, unpaused > 0, unpaused < length else { return self }
    var scaled = self
    let product = target.thousandths * Int64(unpaused)
    scaled.target = Amount(thousandths: (product + Int64(length) - 1) / Int64(length))
    return scaled
  }
}

extension Frequency {
  /// Completed days a period of `length` days of which `unpaused` are not paused asks for:
  /// ceil(k × unpaused / length); 0 for a wholly paused period.
  public func times(unpaused: Int, of length: Int) -> Int {
    guard unpaused < length else { return times }
    return (times * unpaused + length - 1) / length
  }
}
