/// All habits at once: each day's level 0–4 is the share of habits that existed that day and
/// were completed (SPEC 4). A habit whose day is neutral (paused, outside its weekdays) counts
/// only when completed, so a vacation does not dim the grid.
public struct ActivityGrid: Hashable, Codable, Sendable {
  public struct Cell: Hashable, Codable, Sendable {
    public let day: Day
    public let level: Int
    public let completed: Int
    /// Habits whose tracking had started by this day.
    public let tracked: Int
    public let isFuture: Bool
  }

  public struct Input: Sendable {
    public let habit: Habit
    public let history: HabitHistory

    public init(habit: Habit, history: HabitHistory) {
      self.habit = habit
      self.history = history
    }
  }

  /// Columns, oldest first; each holds seven cells in weekday order.
  public let weeks: [[Cell]]

  public init(habits: [Input], today: Day, firstWeekday: Weekday, weekCount: Int) {
    let weekStarts = GridGeometry.weekStarts(weekCount: weekCount, today: today, firstWeekday: firstWeekday)
    let first = weekStarts[0]
    let pastDays = max(0, min(weekStarts.count * 7, first.days(to: today) + 1))
    // Habit by habit, each day's counts in place: one pass over each history, with the question
    // of neutral days asked only of habits that can have them.
    var existing = [Int](repeating: 0, count: pastDays)
    var completed = [Int](repeating: 0, count: pastDays)
    for input in habits {
      let history = input.history
      let resting = input.habit.mayRest(history)
      let from = max(0, first.days(to: history.trackingStart(createdDay: input.habit.createdDay)))
      guard from < pastDays else { continue }
      for index in from..<pastDays {
        let day = first.adding(days: index)
        if history.isCompleted(on: day) {
          existing[index] += 1
          completed[index] += 1
        } else if !resting || input.habit.isScheduled(on: day, history: history) {
          existing[index] += 1
        }
      }
    }
    weeks = weekStarts.indices.map { week in
      (0..<7).map { offset in
        let index = week * 7 + offset
        let day = first.adding(days: index)
        guard index < pastDays else {
          return Cell(day: day, level: 0, completed: 0, tracked: 0, isFuture: true)
        }
        return Cell(
          day: day, level: ActivityGrid.level(completed: completed[index], of: existing[index]),
          completed: completed[index], tracked: existing[index], isFuture: false)
      }
    }
  }

  /// 0 → 0, (0, ¼] → 1, (¼, ½] → 2, (½, ¾] → 3, (¾, 1] → 4; compared in integers so a share
  /// that sits exactly on a boundary lands in the lower level.
  public static func level(completed: Int, of total: Int) -> Int {
    guard total > 0, completed > 0 else { return 0 }
    if 4 * completed <= total { return 1 }
    if 2 * completed <= total { return 2 }
    if 4 * completed <= 3 * total { return 3 }
    return 4
  }
}

extension ActivityGrid.Cell {
  /// Words for a screen reader, after the date: "2 of 3 habits done".
  public var spokenText: String {
    if isFuture { return "upcoming" }
    if tracked == 0 { return "no habits tracked yet" }
    return "\(completed) of \(tracked) \(tracked == 1 ? "habit" : "habits") done"
  }

  /// "Monday 2 March, 2 of 3 habits done"; the year is said only when it is not today's.
  public func spokenLabel(calendar: DayCalendar, today: Day) -> String {
    "\(calendar.spokenName(of: day, includingYear: day.year != today.year)), \(spokenText)"
  }
}
