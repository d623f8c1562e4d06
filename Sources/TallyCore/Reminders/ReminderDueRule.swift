/// Whether a habit still wants reminding on a day (SPEC 7): it is not completed that day and,
/// for a weekly habit, its week has not already met the goal.
///
/// Built once from the habit's entries so that asking about many days costs a set lookup and a
/// dictionary lookup per day. Only `.done` counts as completed; a skipped day is not, so it is
/// still due. A day with no entry (every future day) is due unless its week's goal is met.
public struct ReminderDueRule: Sendable {
  public let frequency: Frequency
  private let calendar: DayCalendar
  private let completedDays: Set<Day>
  /// Completed days per week, keyed by the week's first day.
  private let completionsByWeek: [Day: Int]

  public init(frequency: Frequency, completedDays: Set<Day>, calendar: DayCalendar) {
    self.frequency = frequency
    self.calendar = calendar
    self.completedDays = completedDays
    var counts: [Day: Int] = [:]
    for day in completedDays {
      counts[calendar.startOfWeek(containing: day), default: 0] += 1
    }
    self.completionsByWeek = counts
  }

  /// Entries should hold at most one per day; if a day appears twice, any `.done` completes it.
  public init(frequency: Frequency, entries: some Sequence<HabitEntry>, calendar: DayCalendar) {
    self.init(
      frequency: frequency,
      completedDays: Set(entries.lazy.filter { $0.status == .done }.map(\.day)),
      calendar: calendar)
  }

  public init(frequency: Frequency, statuses: [Day: EntryStatus], calendar: DayCalendar) {
    self.init(
      frequency: frequency,
      completedDays: Set(statuses.lazy.filter { $0.value == .done }.map(\.key)),
      calendar: calendar)
  }

  public func isDue(on day: Day) -> Bool {
    guard !completedDays.contains(day) else { return false }
    switch frequency {
    case .daily:
      return true
    case .weekly(let target):
      return completionsByWeek[calendar.startOfWeek(containing: day), default: 0] < target
    }
  }
}
