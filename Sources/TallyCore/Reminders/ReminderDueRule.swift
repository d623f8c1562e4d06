/// Whether a habit still wants reminding on a day (SPEC 7): it is not completed that day and
/// its period (week, month, block of days) has not already met the goal. A measurable habit
/// with an *at least* target is due while its period's total is under the target, even on a
/// day that has an amount; one with an *at most* target is due on days nothing was entered.
///
/// Built once from the habit's entries so that asking about many days costs a set lookup and a
/// dictionary lookup per day. Only `.done` counts as completed; a skipped day is not, so it is
/// still due. A day with no entry (every future day) is due unless its period's goal is met.
/// A neutral day (outside a weekday schedule, or paused) is never due, and a partly paused
/// period asks for its paused-scaled goal (SPEC 2).
public struct ReminderDueRule: Sendable {
  public let frequency: Frequency
  public let measure: Measure?
  private let calendar: DayCalendar
  /// Where blocks of a "k times in n days" schedule are counted from (SPEC 3's S).
  private let anchor: Day
  private let completedDays: Set<Day>
  /// Completed days and summed thousandths per period, keyed by the period's first day.
  private let completionsByPeriod: [Day: Int]
  private let totalsByPeriod: [Day: Int64]
  private let paused: PausedDays

  /// Entries should hold at most one per day; if a day appears twice, any `.done` completes it.
  public init(
    frequency: Frequency, measure: Measure? = nil, createdDay: Day? = nil,
    entries: some Sequence<HabitEntry>, paused: PausedDays = .none, calendar: DayCalendar
  ) {
    let done = entries.filter { $0.status == .done }
    let completedDays = Set(done.map(\.day))
    let anchor = [createdDay, completedDays.min()].compactMap(\.self).min() ?? Day(ordinal: 0)
    var counts: [Day: Int] = [:]
    var totals: [Day: Int64] = [:]
    for entry in done {
      let start = frequency.period(containing: entry.day, anchor: anchor, firstWeekday: calendar.firstWeekday).lowerBound
      counts[start, default: 0] += 1
      totals[start, default: 0] += entry.amount?.thousandths ?? 0
    }
    self.frequency = frequency
    self.measure = measure
    self.calendar = calendar
    self.anchor = anchor
    self.completedDays = completedDays
    self.completionsByPeriod = counts
    self.totalsByPeriod = totals
    self.paused = paused
  }

  public init(
    habit: Habit, entries: some Sequence<HabitEntry>, paused: PausedDays = .none, calendar: DayCalendar
  ) {
    self.init(
      frequency: habit.frequency, measure: habit.measure, createdDay: habit.createdDay, entries: entries,
      paused: paused, calendar: calendar)
  }

  public init(
    frequency: Frequency, statuses: [Day: EntryStatus], paused: PausedDays = .none, calendar: DayCalendar
  ) {
    self.init(
      frequency: frequency, entries: statuses.map { HabitEntry(day: $0.key, status: $0.value) }, paused: paused,
      calendar: calendar)
  }

  public func isDue(on day: Day) -> Bool {
    guard frequency.isScheduled(on: day), !paused.contains(day) else { return false }
    let range = frequency.period(containing: day, anchor: anchor, firstWeekday: calendar.firstWeekday)
    let period = range.lowerBound
    let length = range.count
    let unpaused = paused.isEmpty ? length : length - paused.count(in: range)
    switch measure?.direction {
    case nil:
      return !completedDays.contains(day)
        && completionsByPeriod[period, default: 0] < frequency.times(unpaused: unpaused, of: length)
    case .atLeast:
      let goal = measure!.target(unpaused: unpaused, of: length)
      return !goal.isMet(by: Amount(thousandths: totalsByPeriod[period, default: 0]))
    case .atMost:
      return !completedDays.contains(day)
    }
  }
}
