import Foundation
import TallyCore

/// Collects habits and their days as a reader meets them, in the file's order, and says what
/// it left out: the days after today, and a second row for a day a habit already has.
struct HabitBuilder {
  let today: Day
  private(set) var habits: [ImportedHabit] = []
  private var index: [String: Int] = [:]
  private var days: [[Day: HabitEntry]] = []
  private var future: [Int] = []
  private var repeated: [Int] = []

  init(today: Day) {
    self.today = today
  }

  /// The habit called `name`, made by `make` the first time.
  mutating func habit(_ name: String, make: () -> ImportedHabit) -> Int {
    if let found = index[name] { return found }
    habits.append(make())
    days.append([:])
    future.append(0)
    repeated.append(0)
    index[name] = habits.count - 1
    return habits.count - 1
  }

  subscript(habit: Int) -> ImportedHabit {
    get { habits[habit] }
    set { habits[habit] = newValue }
  }

  /// Adds the entry unless its day is after today or the habit has the day already (the
  /// first one read is kept): both counted for ``warnings``.
  mutating func add(_ entry: HabitEntry, to habit: Int) {
    guard entry.day <= today else {
      future[habit] += 1
      return
    }
    guard days[habit][entry.day] == nil else {
      repeated[habit] += 1
      return
    }
    days[habit][entry.day] = entry
  }

  func hasDay(_ day: Day, habit: Int) -> Bool { days[habit][day] != nil }

  /// A habit whose file records amounts but no target or unit (HabitBull, Streaks): at least
  /// 1 a day, no unit, and a warning saying so. `amounts` names them as the file does.
  static func measured(_ name: String, amounts: String) -> (ImportedHabit, ImportWarning) {
    var habit = ImportedHabit(name: name)
    habit.measure = try? Measure(unit: "", target: Amount(1))
    return (habit, ImportWarning(habit: name, "its \(amounts) are amounts; the file holds no target, so it is at least 1 a day"))
  }

  /// The habits with their entries by day, and a warning for each habit with days left out.
  func build() -> (habits: [ImportedHabit], warnings: [ImportWarning]) {
    var warnings: [ImportWarning] = []
    var result = habits
    for number in result.indices {
      result[number].entries = days[number].values.sorted { $0.day < $1.day }
      let name = result[number].name
      if future[number] > 0 {
        warnings.append(ImportWarning(habit: name, "\(LoopMapping.count(future[number], "day")) after today (\(today)) left out"))
      }
      if repeated[number] > 0 {
        warnings.append(
          ImportWarning(
            habit: name,
            "\(LoopMapping.count(repeated[number], "row")) for a day already read left out (the first row of a day is kept)"))
      }
    }
    return (result, warnings)
  }
}
